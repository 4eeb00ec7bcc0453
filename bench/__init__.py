"""simdesk's performance benchmark: `python -m bench` (or `./dev.sh bench`) prints one `name value unit` line
per performance figure, measuring simdesk and its peers in the same run on the same documents."""
