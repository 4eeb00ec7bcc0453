"""`python -m simdesk` runs the `simdesk` command."""

from simdesk.cli import main

if __name__ == "__main__":
    main()
