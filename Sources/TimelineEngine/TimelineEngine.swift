// Placeholder: the TimelineEngine library arrives with its issue.
