"""The language panel for apps that use lprojd: each app's language, switched live."""
