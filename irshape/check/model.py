"""Check a whole document: the structural checks of :mod:`irshape.check.graph`, then a walk in
graph order that feeds each op the shapes OpenVINO would.

Every layer goes through the op registry (:mod:`irshape.ops.registry`): a known op is
validated and inferred by its declaration and shape function, and each declared output port
compared with the inference. In a ``<net>``, an op's inputs come from their producers, as
OpenVINO takes them: a Parameter's ``shape`` attribute (with its intervals), a Const's
``shape`` and value, or the inferred output of a known op. Declared input port dims are the
fallback for producers irshape does not know, and for fragments.

One fault, one finding: when a declared dim is wrong (a known op's output, a Parameter's or
Const's port, an input port that contradicts its edge), the layers downstream usually repeat
the wrong value in their own declared dims. Each tensor therefore remembers the finding where
its declared dims first left OpenVINO's (its *origin*); a downstream mismatch that the wrong
declared inputs explain is not reported again but listed in the origin's ``related``.
"""

from __future__ import annotations

import gc
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable
from functools import cached_property, partial
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from irshape import lifetime, rules
from irshape.check import graph as g
from irshape.check import sources
from irshape.check.layer import IdentityMemo, by_identity, check_op, check_v10_folding, compare_declared
from irshape.diagnostics import Diagnostic, Location
from irshape.dims import PartialShape
from irshape.ir.model import Body, Document, Layer, Port, Source, has_metadata
from irshape.ir.weights import Weights
from irshape.ops.interface import OpResult, Origin, Tensor, Unknown
from irshape.ops.opsets import latest_version, op_version
from irshape.ops.registry import lookup, resolve
from irshape.ops.schema import OpSchema
from irshape.record import Record
from irshape.results import LayerResult

if TYPE_CHECKING:  # imported by a file with Loop, If or TensorIterator layers only
    from irshape.check import subgraphs
    from irshape.check.walk_findings import Divergence  # (imported by a file with findings only)

Report = Callable[[Diagnostic], None]

# Findings about a declared dim that differs from OpenVINO's: the origins of inherited dims.
_ORIGIN_CODES = frozenset(
    {
        rules.DECLARED_DIM_MISMATCH.code,
        rules.DECLARED_RANK_MISMATCH.code,
        rules.SHAPE_ATTRIBUTE_MISMATCH.code,
    }
)


PortShapes = dict[int, PartialShape]
"""The shape OpenVINO computes for a port, by ``id(port)``: what ``--fix`` writes."""


def check_document(
    document: Document,
    report: Report,
    *,
    debug: bool = False,
    port_shapes: PortShapes | None = None,
    body_shapes: PortShapes | None = None,
) -> list[LayerResult]:
    """Check every layer of ``document``; return what was read and inferred per layer.

    With ``port_shapes``, also fill it with the shape of each port OpenVINO computes: outputs
    of Parameters, Consts and the known ops it does not reject, and the inputs they feed.
    With ``body_shapes``, only those of the Loop, If and TensorIterator layers and of every
    port in their bodies (what the executor compiles them for): the walk of the rest keeps its
    memo of repeats, which ``port_shapes`` turns off.
    """
    # The walk makes many small objects and no cycles: the cyclic garbage collector's passes
    # over them would only cost time (a fifth to a quarter of the walk of a large IR).
    collecting = gc.isenabled()
    gc.disable()
    recursion_limit = sys.getrecursionlimit()  # raised by the walks of deeply nested bodies
    walker = _Walker(document, debug, port_shapes)
    walker.body_shapes = body_shapes
    try:
        results = walker.run()
    finally:
        walker.weights.close()  # (the walks of bodies share it)
        sys.setrecursionlimit(recursion_limit)
        if collecting:
            gc.enable()
    for diagnostic in walker.findings():
        report(diagnostic)
    lifetime.retire(walker)
    return results


# An inference's output shapes and element types, and the tensors that flow on from it.
_Flowing = tuple[tuple[PartialShape, ...], tuple[str | None, ...], list[Tensor]]


class _Tensor(Record):
    """One output of a visited layer: OpenVINO's tensor, and where wrong declared dims it
    carries began (``divergence``: a walk_findings.Divergence; not the tensor's value's Origin).

    ``guess`` says why the shape is not OpenVINO's (an op irshape does not infer, a layer
    OpenVINO rejects, or one fed by such a tensor); None when it is: a Parameter's, a Const's,
    or inferred from such shapes. ``doomed``: a layer OpenVINO rejects lies upstream, so
    OpenVINO never computes this tensor at all.
    """

    __slots__ = ("clean", "divergence", "doomed", "guess", "info")
    info: Tensor
    divergence: Divergence | None
    guess: str | None
    doomed: bool
    clean: bool  # OpenVINO's (no guess), computed (not doomed), no divergence: the usual tensor

    def __init__(
        self,
        info: Tensor,
        divergence: Divergence | None = None,
        guess: str | None = "not visited",
        doomed: bool = False,
    ) -> None:
        self.info = info
        self.divergence = divergence
        self.guess = guess
        self.doomed = doomed
        self.clean = guess is None and not doomed and divergence is None


class _Repeat(Record):
    """A clean check of a known op, for the layers that repeat it: ``kept`` holds what the
    check depends on (the declaration, the ``<data>``, the input tensors, the declared output
    dims: _Walker._visit makes it), each the very object, and the walk's memo is keyed by
    their identities (``tuple(map(id, kept))``): the entry keeps them alive, so that no other
    object can have their ids."""

    __slots__ = ("inferred", "kept", "tensors")
    kept: tuple[object, ...]
    inferred: _Flowing
    # what flows on from a repeat fed by tensors OpenVINO computes, where no layer upstream is
    # rejected and no declared dims diverge (never modified: every such repeat shares it)
    tensors: list[_Tensor]

    def __init__(self, kept: tuple[object, ...], inferred: _Flowing) -> None:
        self.kept = kept
        self.inferred = inferred
        self.tensors = [_Tensor(info, None, None, False) for info in inferred[2]]


_DIMS = attrgetter("dims")
_PORT_ID = attrgetter("id")
_PRECISION = attrgetter("precision")
_SOURCE_KINDS = frozenset({"parameter", "constant"})
# The declared ops whose checks (irshape.check.sources) read no declaration, by op version: the
# walk looks them up only for a layer with input ports (see _Walker._op).
_SOURCE_OPS = {("Parameter", 1): "parameter", ("Constant", 1): "constant"}


class _Walker:
    def __init__(
        self,
        document: Document,
        debug: bool,
        port_shapes: PortShapes | None,
        body: subgraphs.BodyContext | None = None,
    ) -> None:
        self.document = document
        self.debug = debug
        self.port_shapes = port_shapes
        self.body_shapes: PortShapes | None = None  # see check_document
        self.graph = g.build_graph(document)
        self.every_input_fed = self.graph.every_input_fed
        self.body = body
        self.weights = Weights(document.weights_path) if body is None else body.weights
        self.found: list[Diagnostic] = []
        self.body_found: list[Diagnostic] = []  # the findings in bodies of this graph's layers
        self.origins: list[Divergence] = []
        self.tensors: dict[int, list[_Tensor]] = {}  # by id(layer)
        self.ops: dict[tuple[str | None, str | None], tuple[str, OpSchema | None]] = {}  # by type, version
        self.flowing: IdentityMemo[OpResult, _Flowing] = {}  # see _flowing
        self.repeats: dict[tuple[int, ...], _Repeat] = {}  # by the ids of _Repeat.kept
        # clean Consts, by the ids of what they depend on: (that, what flows on), see _constant
        self.constants: dict[tuple[int, ...], tuple[tuple[object, ...], list[_Tensor]]] = {}
        self.refolded: set[int] = set()  # id(layer) of the producers _refold looked at
        self.unread_reals = False  # a real Const of rank 2 or more is not read (see _refolded)
        # the bodies walked as declared (subgraphs.infer), by id: once each in a check
        self.declared_walks: set[int] = body.declared_walks if body is not None else set()
        self.metadata = False  # the document has <rt_info>, <pre-process> or <meta_data> (a net's)

    # -- the run ------------------------------------------------------------------------------

    def run(self) -> list[LayerResult]:
        if self.graph.is_net:
            self._structural_checks()
        if self.body is None:
            self._weights_file()
        layers = self.document.layers
        results = LayerResult.of_layers(layers)
        # Producers before consumers: the file's order when it is one (see Graph.in_order).
        if not self.graph.is_net or self.graph.in_order:
            visits: Iterable[tuple[Layer, LayerResult]] = zip(layers, results, strict=True)
        else:
            result_of = {id(layer): result for layer, result in zip(layers, results, strict=True)}
            visits = ((layer, result_of[id(layer)]) for layer in self._kahn_order())
        for layer, result in visits:
            try:  # _guard, inlined: one call fewer a layer
                self._visit(layer, result)
            except Exception as exc:
                self._internal_error(layer, exc)
        if self.graph.is_net and "Assign" in self.graph.types:  # variables: imported for an Assign only
            from irshape.check import variables

            self._guard(None, variables.check_assigned_values, self.graph, self._computed, self.found.append)
        if self.metadata and (self.body is None or not self.body.as_declared):
            self._check_layouts()
        return results

    def _check_layouts(self) -> None:
        """Ports' <rt_info> layouts against the shapes OpenVINO checks them with (IRS026): a
        body's bound Parameters and (but a TensorIterator's, which validates its body's layers
        one by one, not as a model) Results, the model's Results where a layer is 'precise'."""
        from irshape.check import metadata

        def output_tensor(source: Source) -> Tensor | None:
            tensor = self._tensor(source)
            return None if tensor is None or tensor.guess is not None or tensor.doomed else tensor.info

        body = self.body
        if body is None:
            bound, results = None, True
        else:  # bound tensors irshape only guesses are not compared
            bound, results = (body.bound if body.guess is None else {}), body.op != "tensoriterator"
        found = self.found.append
        self._guard(None, metadata.check_layouts, self.graph, output_tensor, found, bound, results)

    def findings(self) -> list[Diagnostic]:
        """Everything found, origins with their inheritors, unbuilt layers noted."""
        inherited = any(origin.inheritors for origin in self.origins)
        position = {id(layer): i for i, layer in enumerate(self.document.layers)} if inherited else {}
        found = self.found + [d for origin in self.origins for d in origin.diagnostics(position)]
        graph = self.graph
        if found and graph.is_net and (graph.lost or not graph.built >= graph.layers.keys()):
            from irshape.check import walk_findings  # (a layer OpenVINO never builds: rare)

            found = [walk_findings.note_unbuilt(graph, d) for d in found]
        if self.body is not None:  # a body's layer is named by the path of ids to it
            prefix = self.body.prefix
            found = [d if d.layer_id is None else d.replace(layer_id=prefix + d.layer_id) for d in found]
        return found + self.body_found

    def _structural_checks(self) -> None:
        # The usual file leaves them nothing to look at (Graph.plain): not even imported.
        plain = self.graph.plain
        if not plain:
            from irshape.check import structure

            for check in structure.NET_CHECKS:
                self._guard(None, check, self.graph, self.found.append)
        if "Assign" in self.graph.types:  # variables: imported for an Assign only
            from irshape.check import variables

            self._guard(None, variables.check_variables, self.graph, self.found.append)
        if self.body is None and not plain:  # the whole file's nesting, once
            from irshape.check import structure  # (imported above)

            self._guard(None, structure.check_body_depth, self.graph, self.found.append)
        self.metadata = has_metadata(self.document)
        if self.metadata:  # <rt_info>, <pre-process>: imported for such a file only
            from irshape.check import metadata

            self._guard(None, metadata.check_document, self.graph, self.weights, self.found.append)

    def _guard(self, layer: Layer | None, step: Callable[..., Any], *args: Any) -> None:
        """Run one step; an exception is a finding (a bug in irshape), never the end of the run."""
        try:
            step(*args)
        except Exception as exc:
            self._internal_error(layer, exc)

    def _internal_error(self, layer: Layer | None, exc: Exception) -> None:
        summary = f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
        if self.debug:
            import traceback  # here: ~2 ms of every start-up otherwise, for --debug only

            summary += "\n" + traceback.format_exc()
        where = self.graph.where(layer) if layer is not None else Location(self.document.path)
        self.found.append(rules.INTERNAL_ERROR(where, summary=summary))

    def _weights_file(self) -> None:
        """IRS009 once for the file: Consts whose .bin is missing or empty are not checked."""
        if not any((kind or "").lower() == "const" for kind in self.graph.types):
            return
        reason = self.weights.unavailable_reason()
        if reason is not None:
            from irshape.check import walk_findings

            self.found.append(walk_findings.weights_unreadable(self.weights, reason, self.document))

    def _kahn_order(self) -> list[Layer]:
        """Producers before consumers (Kahn's algorithm); layers on cycles last, in file order."""
        layers = self.document.layers
        by_key = self.graph.layers
        consumers: dict[str, list[str]] = defaultdict(list)
        pending = dict.fromkeys(by_key, 0)
        for producer, consumer in self.graph.links:
            consumers[producer].append(consumer)
            pending[consumer] += 1
        # A list read while it grows is the FIFO queue: each key is read once, in order.
        ready = [k for k, count in pending.items() if count == 0]
        for key in ready:
            for consumer in consumers.get(key, ()):
                pending[consumer] -= 1
                if pending[consumer] == 0:
                    ready.append(consumer)
        ordered = [by_key[key] for key in ready]
        if len(ordered) == len(layers):
            return ordered
        seen = {id(layer) for layer in ordered}
        return ordered + [layer for layer in layers if id(layer) not in seen]

    # -- one layer ----------------------------------------------------------------------------

    def _visit(self, layer: Layer, result: LayerResult) -> None:
        kind, schema = self.ops.get((layer.type, layer.version)) or self._op(layer)
        # (a Parameter's or Const's declaration is read only by _inputs, for its input ports)
        declared = schema if schema is not None or not layer.inputs else lookup(layer.type, layer.version)
        inputs, origins, computed, doomed = self._inputs(layer, declared)
        if schema is not None and layer.subgraphs is None and kind not in _SOURCE_KINDS:
            # A known op (the usual layer); one that repeats a clean check is that one again.
            result.checked = True
            # The memo key: the identities of what the check depends on but its location (see
            # _Repeat), made without that tuple for the usual layer (one output, one or two inputs).
            ports = layer.outputs
            key: tuple[int, ...]
            if len(ports) == 1 and len(inputs) == 1:
                key = (id(schema), id(layer.data), id(inputs[0]), id(ports[0].dims))
            elif len(ports) == 1 and len(inputs) == 2:
                key = (id(schema), id(layer.data), id(inputs[0]), id(inputs[1]), id(ports[0].dims))
            else:
                key = tuple(map(id, (schema, layer.data, *inputs, *map(_DIMS, ports))))
            repeated = self.repeats.get(key)
            if (
                repeated is not None
                and self.unread_reals
                and schema.value_inputs  # (the usual op has none: no call a repeat)
                and self._refold_wanted(schema, inputs)
            ):
                # What a value input folds to depends on unread real Consts the key does not
                # name (two chains alike but for a rank-2 Const's value): checked again.
                repeated = None
            if repeated is None:
                local: list[Diagnostic] = []
                memo = (key, (schema, layer.data, *inputs, *map(_DIMS, ports)))  # (key's objects)
                outputs = self._known(schema, layer, result, inputs, memo, bool(origins), doomed, local)
            elif computed and not doomed and not origins and self.port_shapes is None:
                shapes, types, _ = repeated.inferred  # (_outputs, inlined for the usual layer)
                result.outputs, result.element_types = list(shapes), list(types)
                if len(ports) == 1 == len(shapes):
                    result.ports = [ports[0].id]
                elif len(ports) == len(shapes):
                    result.ports = list(map(_PORT_ID, ports))
                else:
                    self._outputs(layer, result, repeated.inferred)
                self.tensors[id(layer)] = repeated.tensors  # (what _settle would make)
                return
            else:
                local = []
                outputs = self._outputs(layer, result, repeated.inferred)
            self._settle_known(layer, schema, kind, outputs, origins, computed, doomed, local)
            return
        local = []
        if kind == "constant" and layer.subgraphs is None and self.port_shapes is None:
            self._constant(layer, origins, doomed)  # (as below, for the next usual layer)
            return
        control = None
        if layer.subgraphs is not None:  # a Loop, If or TensorIterator: imported for it only
            from irshape.check import subgraphs

            control = subgraphs.control_op(layer)
        if kind == "parameter":
            where = self.graph.where(layer)
            outputs = [sources.parameter_tensor(layer, where, local.append, self.document.version)]
            if self.body is not None and id(layer) in self.body.bound:
                from irshape.check import subgraphs  # (a body's walk: imported for its layer)

                outputs = subgraphs.bound_parameter(layer, self.body.bound[id(layer)], where, local.append)
        elif control is not None and layer.subgraphs is not None:
            result.checked = True
            outputs, body_computed, body_doomed = self._control(
                control, layer, result, inputs, computed, doomed, local
            )
            computed = computed and body_computed
            doomed = doomed or body_doomed
            schema = None
            kind = "control"
        elif kind == "constant":
            outputs = [sources.const_tensor(layer, self.document.path, self.weights, local.append)]
            if not self.unread_reals:  # (asked until the first one)
                self.unread_reals = sources.unread_reals(outputs[0])
        elif schema is not None:
            result.checked = True
            outputs = self._known(schema, layer, result, inputs, None, bool(origins), doomed, local)
        else:
            outputs = [g.declared_tensor(port) for port in layer.outputs]
            self._not_inferred(layer, local)
        guess = self._guessed(layer, kind, schema is not None or kind == "control", computed, local)
        if guess is None and kind == "parameter" and self.body is not None and id(layer) in self.body.bound:
            guess = self.body.guess
        if self.port_shapes is not None:
            self._remember_ports(layer, outputs, guess is None)
        elif self.body_shapes is not None and kind == "control":
            from irshape.check import subgraphs  # (imported above, for the layer)

            subgraphs.remember_ports(self.body_shapes, layer, inputs, outputs, guess is None)
        if local and schema is not None and not schema.is_source:
            doomed = doomed or any(rules.rejects(d) for d in local)  # OpenVINO rejects the layer
        self._settle(layer, outputs, origins, local, guess, doomed)

    def _constant(self, layer: Layer, origins: list[Divergence], doomed: bool) -> None:
        """A Const (or a layer typed 'Constant'); one that repeats a clean one exactly (its
        type, ``<data>`` and output ports' dims and precisions, each the very object: weights
        the writer stored once, which the reader shares) is that one again."""
        ports = layer.outputs
        key: tuple[int, ...]
        if len(ports) == 1:  # the usual Const: its key made without the tuple of _const_kept
            port = ports[0]
            key = (id(layer.type), id(layer.data), id(layer.has_data), id(port.dims), id(port.precision))
        else:
            key = tuple(map(id, _const_kept(layer)))
        clean = not origins and not doomed
        repeated = self.constants.get(key) if clean else None
        if repeated is not None:
            self.tensors[id(layer)] = repeated[1]
            return
        local: list[Diagnostic] = []
        const = sources.const_tensor(layer, self.document.path, self.weights, local.append)
        if not self.unread_reals:  # (asked until the first one)
            self.unread_reals = sources.unread_reals(const)
        if local or not clean:
            self._settle(layer, [const], origins, local, None, doomed)
            return
        tensors = self.tensors[id(layer)] = [_Tensor(const, None, None, False)]
        self.constants[key] = (_const_kept(layer), tensors)  # (kept: no other object can have their ids)

    def _settle_known(
        self,
        layer: Layer,
        schema: OpSchema,
        kind: str,
        outputs: list[Tensor],
        origins: list[Divergence],
        computed: bool,
        doomed: bool,
        local: list[Diagnostic],
    ) -> None:
        """The end of _visit for a known op (not a source, no bodies)."""
        guess = self._guessed(layer, kind, True, computed, local)
        if self.port_shapes is not None:
            self._remember_ports(layer, outputs, guess is None)
        if local and not schema.is_source:
            doomed = doomed or any(rules.rejects(d) for d in local)  # OpenVINO rejects the layer
        self._settle(layer, outputs, origins, local, guess, doomed)

    def _control(
        self,
        op: str,
        layer: Layer,
        result: LayerResult,
        inputs: list[Tensor],
        computed: bool,
        doomed: bool,
        local: list[Diagnostic],
    ) -> tuple[list[Tensor], bool, bool]:
        """A Loop, If or TensorIterator: its bodies walked as networks (subgraphs.walk_control),
        its outputs made of what reaches the bodies' Results. The tensors that flow on, whether
        they are OpenVINO's, and whether OpenVINO rejects a layer of a body."""
        from irshape.check import subgraphs  # imported by _visit for the layer

        shapes = self.port_shapes if self.port_shapes is not None else self.body_shapes

        def new_walk(document: Document, context: subgraphs.BodyContext) -> _Walker:
            return _Walker(document, self.debug, None if context.as_declared else shapes, context)

        where = self.graph.where(layer)
        inference, body_findings = subgraphs.walk_control(
            op,
            layer,
            inputs,
            computed,
            where,
            self.document,
            self.weights,
            self.declared_walks,
            self.body,
            new_walk,
        )
        if inference is not None:
            local += inference.findings
        self.body_found += body_findings
        body_doomed = any(rules.rejects(d) for d in body_findings)
        if inference is None or inference.result is None:
            return [g.declared_tensor(port) for port in layer.outputs], False, body_doomed
        inferred = _outputs_flowing(inference.result)
        flowing = self._outputs(layer, result, inferred)
        if not doomed and not body_doomed:
            compare_declared(layer, inference.result, where, local.append)
        return flowing, inference.computed, body_doomed

    def body_results(self, body: Body) -> subgraphs.BodyRun:
        """What reaches each Result of this (body) graph, and whether all of it is OpenVINO's."""
        results: dict[int, Tensor] = {}
        computed = True
        for layer in body.layers:
            if layer.type != "Result" or not layer.inputs:
                continue
            source = layer.inputs[0].source
            tensor = self._tensor(source) if source is not None else None
            if tensor is None:
                computed = False
                continue
            results[id(layer)] = tensor.info
            computed = computed and tensor.guess is None and not tensor.doomed
        from irshape.check import subgraphs  # imported by _visit for the layer of the body

        return subgraphs.BodyRun(results, computed)

    def _not_inferred(self, layer: Layer, local: list[Diagnostic]) -> None:
        """IRS308 for a layer of an op OpenVINO knows and irshape does not infer (an op no
        opset holds is IRS404's; a Result has no outputs to infer)."""
        op_type = layer.type or ""
        found = op_version(op_type, layer.version) if layer.version else latest_version(op_type)
        if found is not None and found[0] != "Result":
            local.append(rules.OP_NOT_INFERRED(self.graph.where(layer), op=f"{found[0]}-{found[1]}"))

    def _op(self, layer: Layer) -> tuple[str, OpSchema | None]:
        """The op's canonical type in lower case, and its declaration if irshape has one but
        for a Parameter or a Const (their checks, in irshape.check.sources, read none: each
        declaration a file's check loads costs ~0.15M instructions): looked up once a (type,
        version) pair."""
        key = (layer.type, layer.version)
        op = self.ops.get(key)
        if op is None:
            ref = resolve(layer.type, layer.version)
            source = _SOURCE_OPS.get(ref) if ref is not None else None
            schema = lookup(layer.type, layer.version) if source is None else None
            kind = source or (schema.op.lower() if schema is not None else (layer.type or "").lower())
            op = self.ops[key] = (kind, schema)
        return op

    def _guessed(
        self, layer: Layer, kind: str, known: bool, computed: bool, local: list[Diagnostic]
    ) -> str | None:
        """Why the layer's outputs are not shapes OpenVINO computes, or None when they are.

        ``computed``: every connected input comes from an output whose shape is OpenVINO's.
        """
        if kind in ("parameter", "constant"):
            return None
        if not known:
            return (
                f"{layer.type} is not an op irshape infers, so {g.layer_label(layer)} declares it unchecked"
            )
        if local and any(rules.rejects(d) for d in local):
            return f"OpenVINO rejects {g.layer_label(layer)} (see its error), so it never computes it"
        if not computed:
            return f"{g.layer_label(layer)} is fed by a tensor irshape cannot compute"
        return None

    def _remember_ports(self, layer: Layer, outputs: list[Tensor], computed: bool) -> None:
        """Record the port shapes OpenVINO computes (and never an unknown op's guess)."""
        assert self.port_shapes is not None
        shapes = self.port_shapes
        for port in layer.inputs:
            source = port.source
            shape = shapes.get(id(source[1])) if source is not None else None
            if shape is not None:
                shapes[id(port)] = shape
        if computed:
            for port, info in zip(layer.outputs, outputs, strict=False):
                shapes[id(port)] = info.shape

    def _settle(
        self,
        layer: Layer,
        outputs: list[Tensor],
        origins: list[Divergence],
        local: list[Diagnostic],
        guess: str | None,
        doomed: bool,
    ) -> None:
        """File the layer's findings; remember its outputs and where wrong declared dims began."""
        origin = self._file(layer, local) if local else None
        inherited = origin or (origins[0] if origins else None)
        if inherited is None:  # the usual case
            self.tensors[id(layer)] = [_Tensor(info, None, guess, doomed) for info in outputs]
            return
        from irshape.check import walk_findings  # (imported where the divergence was made)

        ports = layer.outputs
        self.tensors[id(layer)] = [
            _Tensor(info, inherited if walk_findings.diverges(ports, index, info) else None, guess, doomed)
            for index, info in enumerate(outputs)
        ]

    def _file(self, layer: Layer, local: list[Diagnostic]) -> Divergence | None:
        """File the layer's findings; the origin its own declared-dims findings make, if any."""
        own = [d for d in local if d.code in _ORIGIN_CODES]
        self.found += [d for d in local if d.code not in _ORIGIN_CODES]
        if not own:
            return None
        from irshape.check.walk_findings import Divergence  # (declared dims OpenVINO's differ from)

        origin = Divergence(own, g.layer_label(layer))
        self.origins.append(origin)
        return origin

    # -- inputs -------------------------------------------------------------------------------

    @cached_property
    def _v10_dropped_inputs(self) -> Callable[[g.Graph, Layer, OpSchema], int]:
        """:func:`irshape.check.structure.v10_dropped_inputs`, imported once a walk, for a file
        with an unfed input or extra ones only (an import statement at each layer would cost
        its lookup again at every layer of such a file)."""
        from irshape.check import structure

        return structure.v10_dropped_inputs

    def _inputs(
        self, layer: Layer, schema: OpSchema | None
    ) -> tuple[list[Tensor], list[Divergence], bool, bool]:
        """What flows into each input port, the origins of wrong dims they declare, whether
        every connected input comes from an output whose shape is OpenVINO's, and whether one
        comes after a layer OpenVINO rejects."""
        # IR v10 builds a layer from its connected inputs only: a trailing optional port
        # without an edge (a backprop op's output_shape) is dropped (IRS409). A dropped port
        # has no edge, so it says nothing of whether the inputs are computed.
        ports = layer.inputs
        if schema is not None and not (self.every_input_fed and len(ports) <= schema.input_counts[1]):
            dropped = self._v10_dropped_inputs(self.graph, layer, schema)
            if dropped:
                ports = ports[: len(ports) - dropped]
        infos: list[Tensor] = []
        origins: list[Divergence] = []
        computed, doomed = True, False
        visited = self.tensors
        for port in ports:
            source = port.source  # (build_graph set it: no lookup; None in a fragment)
            tensor = None
            if source is not None:  # _tensor, inlined: once an edge
                produced = visited.get(id(source[0]))
                index = source[1].index
                if produced is not None and index < len(produced):
                    tensor = produced[index]
                    if tensor.clean and source[1].dims == port.dims:
                        infos.append(tensor.info)  # the usual input: nothing more to look at
                        continue
            if source is None or tensor is None:
                infos.append(self._unresolved(port, source))
                computed = computed and source is None  # an unconnected port is its declared dims
                continue
            infos.append(tensor.info)
            computed = computed and tensor.guess is None
            doomed = doomed or tensor.doomed
            if tensor.divergence is None and source[1].dims == port.dims:
                continue  # the usual case: the edge's ports agree, nothing to inherit
            origin = self._divergence(layer, port, source, tensor)
            if origin is not None:
                origin.inherit(layer)
                origins.append(origin)
        return infos, origins, computed, doomed

    def _computed(self, layer: Layer) -> Tensor | None:
        """The layer's first output as OpenVINO computes it; None where irshape does not know it."""
        tensors = self.tensors.get(id(layer))
        if not tensors or tensors[0].guess is not None or tensors[0].doomed:
            return None
        return tensors[0].info

    def _tensor(self, source: Source) -> _Tensor | None:
        """The visited output an edge comes from (None: its producer is not visited yet)."""
        producer, out_port = source
        tensors = self.tensors.get(id(producer))
        if tensors is None or out_port.index >= len(tensors):
            return None
        return tensors[out_port.index]

    def _divergence(self, layer: Layer, port: Port, source: Source, tensor: _Tensor) -> Divergence | None:
        """The origin of wrong dims this input port declares, if they are wrong (IRS411)."""
        producer, out_port = source
        if g.same_dims(out_port, port):
            if tensor.divergence is None or g.fits(port, tensor.info.shape):
                return None
            return tensor.divergence
        consumer_ok = g.fits(port, tensor.info.shape)
        if consumer_ok and tensor.divergence is not None:
            return None  # the producer's declared output is the fault, reported there
        from irshape.check.walk_findings import edge_origin  # (an edge whose ports disagree)

        where = self.graph.where(layer)
        origin = edge_origin(layer, port, producer, out_port, tensor.info.shape, tensor.guess, where)
        self.origins.append(origin)
        return None if consumer_ok else origin

    def _unresolved(self, port: Port, source: Source | None) -> Tensor:
        """An input irshape cannot follow to its producer: the port's own declared dims."""
        info = g.declared_tensor(port)
        if not self.graph.is_net:
            why = "a fragment has no graph to take the value from"
        elif source is None:
            why = "the input is not connected"
        else:
            why = f"it is computed by layer {source[0].id}, not read from a Const"
        info.unknown_as(Unknown.ELSEWHERE, why)
        return info

    # -- ops ----------------------------------------------------------------------------------

    def _known(
        self,
        schema: OpSchema,
        layer: Layer,
        result: LayerResult,
        inputs: list[Tensor],
        memo: tuple[tuple[int, ...], tuple[object, ...]] | None,
        inherits: bool,
        doomed: bool,
        local: list[Diagnostic],
    ) -> list[Tensor]:
        """Check a known op whose check no clean one repeats; remember it by ``memo`` (its key
        and what it depends on, see _Repeat) when it is clean."""
        where = partial(self.graph.where, layer)  # made only for a layer with findings
        found_before = len(local)
        # (a value refolded from Consts the key does not name: not remembered as a repeat)
        checked = (
            self._refolded(schema, layer, inputs) if self.unread_reals and schema.value_inputs else inputs
        )
        inference = check_op(schema, layer, checked, where, local.append)
        if self.document.version == 10:  # its reading constant-folds the graph
            check_v10_folding(schema, layer, checked, inference, where, local.append)
        if inference is None:
            return [Tensor(PartialShape(None))]
        if len(layer.outputs) > len(inference.outputs) and not inference.rejected:
            from irshape.check.walk_findings import extra_output_ports

            local.append(extra_output_ports(self.document, schema, layer, len(inference.outputs), where()))
        inferred = self._flowing(inference)
        flowing = self._outputs(layer, result, inferred)
        if inference.rejected:  # OpenVINO stops here: what flows on is the file's word, no cascade
            return [g.declared_tensor(port) for port in layer.outputs] or [Tensor(PartialShape(None))]
        if not doomed:  # else OpenVINO stops before this layer, and "it will use N" is untrue
            compare_declared(layer, inference, where, local.append)
        if inherits:
            from irshape.check.walk_findings import drop_inherited  # (imported by _inputs)

            drop_inherited(schema, layer, checked, where(), local)
        elif not doomed and len(local) == found_before and memo is not None and checked is inputs:
            self.repeats[memo[0]] = _Repeat(memo[1], inferred)
        return flowing

    # -- values read late: real Consts of rank 2 or more -------------------------------------

    def _refolded(self, schema: OpSchema, layer: Layer, inputs: list[Tensor]) -> list[Tensor]:
        """The inputs with the values OpenVINO folds into the layer's value inputs from real
        Consts of rank 2 or more, whose values are read only here, where a value input reaches
        them (reading every weight would cost each layer a bias feeds its memo; the usual value
        input is known, or unknown for another reason, and costs one test)."""
        wanted = self._refold_wanted(schema, inputs)
        if not wanted:
            return inputs
        refolded = list(inputs)
        for index in wanted:
            source = layer.inputs[index].source if index < len(layer.inputs) else None
            again = self._refold(source, 0) if source is not None else None
            if again is not None:
                refolded[index] = again
        return refolded

    @staticmethod
    def _refold_wanted(schema: OpSchema, inputs: list[Tensor]) -> list[int]:
        """The value inputs whose value OpenVINO may fold from real Consts not read yet."""
        ports = schema.value_inputs
        if schema.op in _VALUE_MOVED_AT_0:
            ports = ports[1:]  # (their data's value decides no shape: only a value input above does)
        return [p for p in ports if p < len(inputs) and inputs[p].value is None and _unfolded(inputs[p])]

    def _refold(self, source: Source, depth: int) -> Tensor | None:
        """The tensor ``source`` gives with the values of the unread real Consts above it read
        and the ops between folded again (their shapes do not change: a value that decides one
        is a value input, refolded when its layer was checked); the producers' tensors are
        replaced, for their other consumers. None where nothing changes."""
        producer, out_port = source
        tensor = self._tensor(source)
        if tensor is None or depth > _REFOLD_DEPTH or id(producer) in self.refolded:
            return None
        self.refolded.add(id(producer))
        if sources.unread_reals(tensor.info):
            read = sources.read_reals(producer, self.weights, tensor.info)
            if read is not None:
                self.tensors[id(producer)] = [tensor.replace(info=read)]
            return read
        kind, schema = self._op(producer)[0], lookup(producer.type, producer.version)
        if (
            schema is None
            or kind == "constant"
            or producer.subgraphs is not None
            or not _unfolded(tensor.info)
        ):
            return None  # (a Loop, If or TensorIterator is not folded again: its bodies would be)
        inputs, changed = [], False
        for port in producer.inputs:
            above = port.source
            given = self._tensor(above) if above is not None else None
            if above is None or given is None:
                return None
            again = self._refold(above, depth + 1) if _unfolded(given.info) else None
            inputs.append(given.info if again is None else again)
            changed = changed or again is not None
        if not changed:
            return None
        inference = check_op(schema, producer, inputs, partial(self.graph.where, producer), lambda d: None)
        if inference is None or inference.rejected:
            return None
        before = self.tensors[id(producer)]
        flowing = _outputs_flowing(inference)[2]
        self.tensors[id(producer)] = [
            t.replace(info=f) for t, f in zip(before, flowing, strict=False)
        ] + before[len(flowing) :]
        return self.tensors[id(producer)][out_port.index].info if out_port.index < len(flowing) else None

    @staticmethod
    def _outputs(layer: Layer, result: LayerResult, inferred: _Flowing) -> list[Tensor]:
        """Record the inferred outputs in the layer's result; the tensors that flow on."""
        shapes, types, flowing = inferred
        result.outputs, result.element_types = list(shapes), list(types)
        ports = layer.outputs
        if len(ports) == len(shapes):  # the usual layer
            result.ports = list(map(_PORT_ID, ports))
            return flowing
        result.ports = [port.id for port in ports[: len(shapes)]]
        if len(result.ports) < len(shapes):
            result.ports += [None] * (len(shapes) - len(result.ports))
        return flowing

    def _flowing(self, inference: OpResult) -> _Flowing:
        """The inferred shapes, element types and the tensors that flow on (never modified), made
        once an inference: the memo gives the layers that repeat a check the same one."""
        return by_identity(self.flowing, inference, _outputs_flowing)


def _const_kept(layer: Layer) -> tuple[object, ...]:
    """What a clean Const's check depends on, each the very object (the walk's memo of Consts is
    keyed by their identities): its type, ``<data>`` and output ports' dims and precisions."""
    return (
        layer.type,
        layer.data,
        layer.has_data,
        *map(_DIMS, layer.outputs),
        *map(_PRECISION, layer.outputs),
    )


def _outputs_flowing(inference: OpResult) -> _Flowing:
    outputs = inference.outputs
    return (
        tuple(o.shape for o in outputs),
        tuple(o.element_type for o in outputs),
        [Tensor(o.shape, o.element_type, facts=o.facts) for o in outputs],
    )


_REFOLD_DEPTH = 64  # the ops between a value input and the real Consts it reaches, at most
# The ops whose value inputs (their declaration's) begin with the data whose elements they move
_VALUE_MOVED_AT_0 = frozenset({"Gather", "Slice", "StridedSlice"})


def _unfolded(tensor: Tensor) -> bool:
    """A tensor OpenVINO can evaluate (it reaches Consts and ShapeOfs only) whose value irshape
    has not: nothing known of it, and no reason said (an unread real Const above it, maybe)."""
    return (
        tensor.value is None
        and tensor.origin is not Origin.DATA
        and tensor.reals is None
        and tensor.lower is None
        and tensor.real_lower is None
        and tensor.unknown is None
    )
