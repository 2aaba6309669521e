//! How errors flow through a file's functions, for the cause graph: which
//! calls' errors a function hands up as they are (`return f(x)`; `v, err :=
//! f(x)` then `return nil, err`), which calls' errors it checks at all,
//! its parameters and local values, and the file's imports and constants.
//! The extractor's cause pass (`errdex-extract`) resolves the calls and
//! follows them to the sites and standard-library calls they reach.

/// What a file tells about the flow of errors.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FileFlows {
    /// Local package name → import path.
    pub imports: Vec<(String, String)>,
    /// Constants: name → the expression it is declared with, as written.
    pub constants: Vec<(String, String)>,
    /// Every function and method.
    pub functions: Vec<FunctionFlow>,
    /// Struct and interface types.
    #[serde(default)]
    pub types: Vec<TypeFlow>,
}

/// A struct or interface type of a file.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TypeFlow {
    /// Its name.
    pub name: String,
    /// A struct's named fields: name → type (`le` → `lease.Lessor`),
    /// without `*` and type arguments.
    pub fields: Vec<(String, String)>,
    /// A struct's embedded types, whose fields and methods it has too.
    pub embedded: Vec<String>,
    /// Whether it is an interface.
    pub interface: bool,
    /// An interface's methods.
    pub methods: Vec<String>,
}

impl TypeFlow {
    /// The type of field `name`, declared here.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.as_str())
            .filter(|t| !t.is_empty())
    }
}

/// One function or method.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FunctionFlow {
    /// Its name.
    pub name: String,
    /// A method's receiver type, without `*` and type parameters.
    pub receiver: Option<String>,
    /// The receiver's name inside the method (`r` of `(r *T)`).
    pub receiver_name: Option<String>,
    /// Parameter names, in order.
    pub params: Vec<String>,
    /// Line of the declaration (1-based).
    pub line: u32,
    /// Calls whose error the function returns unchanged.
    pub passes: Vec<CallFlow>,
    /// Calls whose result goes to an error variable (`v, err := f(x)`),
    /// in source order: what a site that wraps `err` wraps.
    pub error_calls: Vec<CallFlow>,
    /// Local names given a value once (`addr := net.JoinHostPort(…)`):
    /// name → the expression, as written.
    pub locals: Vec<(String, String)>,
    /// Its last result is an `error` and every `return` gives `nil` there:
    /// a call of it never fails, and a message wrapping its error never
    /// appears.
    #[serde(default)]
    pub never_fails: bool,
}

/// A call, as written.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CallFlow {
    /// The called expression (`serveReadinessOnAddr`, `net.Listen`,
    /// `r.store.Get`).
    pub callee: String,
    /// The arguments' source text.
    pub args: Vec<String>,
    /// Line of the call (1-based).
    pub line: u32,
    /// For a call whose error is handed up only when it is one sentinel
    /// (`if err == ErrCompacted { return nil, err }`): that sentinel's
    /// name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only: Option<String>,
}

impl FunctionFlow {
    /// The call a site at `line` wraps when its wrapped call is `callee`:
    /// the last such call to an error variable at or before that line.
    pub fn wrapped(&self, callee: &str, line: u32) -> Option<&CallFlow> {
        self.error_calls
            .iter()
            .rev()
            .find(|c| c.callee == callee && c.line <= line)
    }

    /// The expression a local name was given, if once.
    pub fn local(&self, name: &str) -> Option<&str> {
        self.locals
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, e)| e.as_str())
    }
}
