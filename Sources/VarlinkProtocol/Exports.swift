/// Varlink's messages are JSON: what imports the protocol gets the JSON tree
/// (`JSONValue`, `JSONParser`, `JSONWriter`) with it. The tree lives in
/// `JSONText`, so that what reads JSON for other reasons (String Catalogs,
/// lproj-extract's references) need not import the wire protocol.
@_exported public import JSONText
