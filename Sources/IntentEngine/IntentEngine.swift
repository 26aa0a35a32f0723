// Placeholder: the IntentEngine library arrives with its issue.
