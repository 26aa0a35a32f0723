"""protoc-gen-glimpse-swift, in parts (see the plugin script for the mapping)."""
