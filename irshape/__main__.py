from irshape.cli import main

main()
