// Placeholder: the ActivityEngine library arrives with its issue.
