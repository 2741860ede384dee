"""The pre-commit hook, run for real, and the README's pre-commit and Actions snippets.

``pre-commit try-repo PATH`` installs the hook from a git repository at its HEAD (plus
uncommitted changes to files git already tracks, never untracked files), into a fresh
environment each time. So the tests copy irshape's sources into a temporary git repository and
commit them there, never touching the repository under test. Installing the hook needs pip
to reach the package index (lxml, click, setuptools), as CI's own install does.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml  # pre-commit's own dependency
from conv_layers import BAD

ROOT = Path(__file__).resolve().parents[1]
GOOD_NET = ROOT / "fixtures" / "ir" / "conv_relu_deconv.xml"
SOURCES = ("irshape", "pyproject.toml", "README.md", ".pre-commit-hooks.yaml")
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "irshape tests",
    "GIT_AUTHOR_EMAIL": "tests@irshape.invalid",
    "GIT_COMMITTER_NAME": "irshape tests",
    "GIT_COMMITTER_EMAIL": "tests@irshape.invalid",
}


def environment(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env.update(GIT_IDENTITY, PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never")
    env.pop("GITHUB_ACTIONS", None)
    return env


def git(*args: str, cwd: Path, env: dict[str, str]) -> str:
    return subprocess.run(
        ["git", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", *args],
        cwd=cwd,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def pre_commit(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args], cwd=cwd, env=env, capture_output=True, text=True
    )


def readme_block(marker: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split(f"<!-- {marker}:begin -->", 1)[1].split(f"<!-- {marker}:end -->", 1)[0]
    match = re.search(r"```yaml\n(.*?)```", block, re.S)
    assert match, marker
    return match.group(1)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory, home: Path) -> tuple[Path, str]:
    """irshape's sources, committed in a repository of their own; returns (path, commit)."""
    repo = tmp_path_factory.mktemp("irshape-hook-repo")
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, repo / name, ignore=ignore)
        else:
            shutil.copy(source, repo / name)
    env = environment(home)
    git("init", "-q", cwd=repo, env=env)
    git("add", "-A", cwd=repo, env=env)
    git("commit", "-q", "-m", "irshape under test", cwd=repo, env=env)
    return repo, git("rev-parse", "HEAD", cwd=repo, env=env)


@pytest.fixture
def user_repo(tmp_path: Path, home: Path) -> Path:
    """A user's repository with one good IR (and its .bin) and one bad IR, staged."""
    repo = tmp_path / "models-repo"
    (repo / "models").mkdir(parents=True)
    shutil.copy(GOOD_NET, repo / "models" / "good.xml")
    shutil.copy(GOOD_NET.with_suffix(".bin"), repo / "models" / "good.bin")
    (repo / "models" / "bad.xml").write_text(BAD, encoding="utf-8")
    (repo / "notes.txt").write_text("not IR\n", encoding="utf-8")
    env = environment(home)
    git("init", "-q", cwd=repo, env=env)
    git("add", "-A", cwd=repo, env=env)
    return repo


def snapshot(repo: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(repo)): p.read_bytes()
        for p in repo.rglob("*")
        if p.is_file() and ".git" not in p.parts
    }


def test_hook_manifest() -> None:
    hook, fixer = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert (fixer["id"], fixer["entry"], fixer["types"]) == ("irshape-fix", "irshape check --fix", ["xml"])
    assert hook["id"] == "irshape"
    assert hook["entry"] == "irshape check"
    assert hook["language"] == "python"
    assert hook["types"] == ["xml"]
    assert hook.get("pass_filenames", True) is True


def test_try_repo_passes_on_good_ir_and_fails_on_bad_ir(
    hook_repo: tuple[Path, str], user_repo: Path, home: Path
) -> None:
    env = environment(home)
    before = snapshot(user_repo)
    good = pre_commit(
        "try-repo", str(hook_repo[0]), "irshape", "--files", "models/good.xml", cwd=user_repo, env=env
    )
    assert good.returncode == 0, good.stdout + good.stderr
    assert re.search(r"^irshape\.+Passed$", good.stdout, re.M), good.stdout

    every = pre_commit("try-repo", str(hook_repo[0]), "irshape", "--all-files", cwd=user_repo, env=env)
    assert every.returncode == 1, every.stdout + every.stderr
    assert re.search(r"^irshape\.+Failed$", every.stdout, re.M), every.stdout
    assert "- exit code: 1" in every.stdout
    assert "models/bad.xml:8:51: IRS301 [error]" in every.stdout
    assert "good.xml:" not in every.stdout  # per-file results: the good file has no finding
    assert "files were modified by this hook" not in every.stdout
    assert snapshot(user_repo) == before  # check mode never writes


def test_readme_pre_commit_config_works_when_pasted(
    hook_repo: tuple[Path, str], user_repo: Path, home: Path
) -> None:
    snippet = readme_block("pre-commit-config")
    config = yaml.safe_load(snippet)
    (entry,) = config["repos"]
    assert entry["repo"].startswith("https://") and entry["rev"]
    assert [hook["id"] for hook in entry["hooks"]] == ["irshape"]
    # What a user does: paste it, with the irshape repository's URL and a revision of it.
    pasted = snippet.replace(entry["repo"], str(hook_repo[0])).replace(
        f"rev: {entry['rev']}", f"rev: {hook_repo[1]}"
    )
    (user_repo / ".pre-commit-config.yaml").write_text(pasted, encoding="utf-8")
    env = environment(home)
    git("add", ".pre-commit-config.yaml", cwd=user_repo, env=env)

    failing = pre_commit("run", "--all-files", cwd=user_repo, env=env)
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "models/bad.xml:8:51: IRS301" in failing.stdout
    passing = pre_commit("run", "--files", "models/good.xml", "notes.txt", cwd=user_repo, env=env)
    assert passing.returncode == 0, passing.stdout + passing.stderr
    git("rm", "-q", "--cached", "models/bad.xml", cwd=user_repo, env=env)
    (user_repo / "models" / "bad.xml").unlink()
    assert pre_commit("run", "--all-files", cwd=user_repo, env=env).returncode == 0


def test_readme_actions_workflow_commands_work(tmp_path: Path) -> None:
    """The workflow's irshape steps, run as Actions would (GITHUB_ACTIONS=true) on a models/ dir."""
    workflow = yaml.safe_load(readme_block("actions-workflow"))
    steps = workflow["jobs"]["irshape"]["steps"]
    uses = [step["uses"].split("@")[0] for step in steps if "uses" in step]
    assert uses == ["actions/checkout", "actions/setup-python", "github/codeql-action/upload-sarif"]
    assert workflow["permissions"]["security-events"] == "write"
    commands = [step["run"] for step in steps if "run" in step and step["run"].startswith("irshape ")]
    assert len(commands) == 2
    sarif_file = next(s for s in steps if "upload-sarif" in s.get("uses", ""))["with"]["sarif_file"]

    (tmp_path / "models").mkdir()
    shutil.copy(GOOD_NET, tmp_path / "models" / "good.xml")
    shutil.copy(GOOD_NET.with_suffix(".bin"), tmp_path / "models" / "good.bin")
    (tmp_path / "models" / "bad.xml").write_text(BAD, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(GITHUB_ACTIONS="true", GITHUB_WORKFLOW="irshape")
    results = []
    for command in commands:
        argv = [sys.executable, "-m", "irshape", *command.split()[1:]]
        results.append(subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True))
    sarif_step, annotate_step = results
    assert sarif_step.returncode == 0  # --exit-zero: the upload step still runs
    log = json.loads((tmp_path / sarif_file).read_text())
    assert log["version"] == "2.1.0" and log["runs"][0]["results"][0]["ruleId"] == "IRS301"
    assert annotate_step.returncode == 1  # the job fails on the error...
    assert annotate_step.stdout.startswith("::error file=models/bad.xml,line=8,col=51,")  # ...annotated
    assert "models/good.xml" not in annotate_step.stdout  # with its .bin, the good model passes
    # A deployment job fails on a model OpenVINO could not read for want of its .bin.
    (tmp_path / "models" / "good.bin").unlink()
    argv = [sys.executable, "-m", "irshape", *commands[1].split()[1:]]
    missing = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert missing.returncode == 1 and "::error file=models/good.xml" in missing.stdout


OTHER_XML = {
    "pom.xml": '<?xml version="1.0"?>\n<project><modelVersion>4.0.0</modelVersion></project>\n',
    "assets/logo.xml": '<?xml version="1.0"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
    '"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg xmlns="http://www.w3.org/2000/svg"/>\n',
    ".idea/misc.xml": '<?xml version="1.0" encoding="UTF-8"?>\n<project version="4">\n  <component>\n',
    "data/Annotations/000001.xml": "<annotation><object><name>dog</name></object></annotation>\n",
}


def test_hook_passes_a_commit_of_other_xml_and_still_fails_a_bad_ir(
    hook_repo: tuple[Path, str], user_repo: Path, home: Path
) -> None:
    """The default hook passes every staged .xml: a pom.xml, an SVG, an IDE's broken
    .idea/*.xml and a VOC annotation do not block the commit; the bad IR still does."""
    env = environment(home)
    for name, text in OTHER_XML.items():
        (user_repo / name).parent.mkdir(parents=True, exist_ok=True)
        (user_repo / name).write_text(text, encoding="utf-8")
    git("add", "-A", cwd=user_repo, env=env)
    others = pre_commit(
        "try-repo",
        str(hook_repo[0]),
        "irshape",
        "--files",
        *OTHER_XML,
        "models/good.xml",
        cwd=user_repo,
        env=env,
    )
    assert others.returncode == 0, others.stdout + others.stderr
    assert re.search(r"^irshape\.+Passed$", others.stdout, re.M), others.stdout
    every = pre_commit("try-repo", str(hook_repo[0]), "irshape", "--all-files", cwd=user_repo, env=env)
    assert every.returncode == 1, every.stdout + every.stderr
    assert "models/bad.xml:8:51: IRS301 [error]" in every.stdout
    assert "pom.xml" not in every.stdout and "IRS002" not in every.stdout and "IRS004" not in every.stdout


def test_fix_hook_rewrites_the_bad_dim(hook_repo: tuple[Path, str], user_repo: Path, home: Path) -> None:
    env = environment(home)
    run = pre_commit("try-repo", str(hook_repo[0]), "irshape-fix", "--all-files", cwd=user_repo, env=env)
    assert run.returncode == 1, run.stdout + run.stderr  # pre-commit fails a hook that changed files
    assert "files were modified by this hook" in run.stdout
    fixed = (user_repo / "models" / "bad.xml").read_text(encoding="utf-8")
    assert fixed == BAD.replace("<dim>9</dim><dim>8</dim>", "<dim>8</dim><dim>8</dim>")  # 10 - 3 + 1
    again = pre_commit("try-repo", str(hook_repo[0]), "irshape-fix", "--all-files", cwd=user_repo, env=env)
    assert again.returncode == 0, again.stdout + again.stderr
