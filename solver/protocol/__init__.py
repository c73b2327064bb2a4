"""The engine protocol for other programs: sans-IO sessions (`session`: seat and host modes,
spellcheck), the JSON-lines driver on stdin/stdout (`stdio`) and the driver of a network
connection (`network`, used by the WebSocket endpoint). docs/PROTOCOL.md is the specification."""
