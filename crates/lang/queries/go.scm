; Nodes the Go extractor looks at; the Rust side decides what each one means
; (which callee, which argument is the message), because that needs the
; file's import aliases.
(import_spec) @import

(source_file (const_declaration (const_spec) @const))

(call_expression) @call

(method_declaration
  name: (field_identifier) @_name
  (#eq? @_name "Error")) @error_method
