"""`python -m pivotal` runs the command line."""

from pivotal.cli import main

main()
