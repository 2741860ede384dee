from irshape.cli import run

run()
