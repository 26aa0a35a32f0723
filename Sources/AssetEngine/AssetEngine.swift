// Placeholder: the AssetEngine library arrives with its issue.
