//! Runs update-script statements over JSON values: `ctx` (its `_source` is the document),
//! `params`, and `def` locals. Numbers keep Java's split between integers (64-bit, integer
//! division) and doubles; `+` with a string concatenates. A value of the wrong kind, or a
//! path through `null`, is a runtime error naming what failed, as Painless reports it.

use serde_json::{Map, Number, Value};

use super::parse::{Node, Stmt};

/// What a failed run reports (becomes ES's `script_exception`, "runtime error").
pub type RunError = String;
type Run<T> = std::result::Result<T, RunError>;

/// The variables a script sees: `ctx`, `params` and its locals, and what is left of its
/// budget: every value a script reads or builds is charged its size, so a script that doubles
/// a list or a string statement after statement stops with an error instead of exhausting
/// memory (it has no loops, but 100 doublings are 2^100 elements).
pub struct Env {
    pub vars: Map<String, Value>,
    pub budget: usize,
}

/// Units (`weight`) a script may read and build: a few copies of a large document.
pub const BUDGET: usize = 5_000_000;

/// A value's size in budget units: one per value, one per 8 bytes of text.
fn weight(v: &Value) -> usize {
    match v {
        Value::String(s) => 1 + s.len() / 8,
        Value::Array(items) => 1 + items.iter().map(weight).sum::<usize>(),
        Value::Object(map) => 1 + map.iter().map(|(k, v)| k.len() / 8 + weight(v)).sum::<usize>(),
        _ => 1,
    }
}

/// Where a value lives: a variable and the keys/indexes under it.
enum Step {
    Key(String),
    At(usize),
}

impl Env {
    /// Runs `stmts`; `Ok(false)` when a `return` stopped them.
    pub fn run(&mut self, stmts: &[Stmt]) -> Run<bool> {
        for stmt in stmts {
            match stmt {
                Stmt::Expr(node) => {
                    self.eval(node)?;
                }
                Stmt::Assign(target, op, value) => {
                    let value = self.eval(value)?;
                    let value = match op {
                        None => value,
                        Some(op) => binary(op, &self.eval(target)?, &value)?,
                    };
                    *self.place(target)? = value;
                }
                Stmt::Step(target, by) => {
                    let next = binary("+", &self.eval(target)?, &Value::from(*by))?;
                    *self.place(target)? = next;
                }
                Stmt::If(cond, then, other) => {
                    let branch = if truth(&self.eval(cond)?)? { then } else { other };
                    if !self.run(branch)? {
                        return Ok(false);
                    }
                }
                Stmt::Def(name, value) => {
                    let value = self.eval(value)?;
                    self.vars.insert(name.clone(), value);
                }
                Stmt::Return => return Ok(false),
            }
        }
        Ok(true)
    }

    fn eval(&mut self, node: &Node) -> Run<Value> {
        let value = self.compute(node)?;
        self.budget = self.budget.checked_sub(weight(&value)).ok_or_else(|| {
            format!("the script read or built more than its budget of {BUDGET} values (or text of that size)")
        })?;
        Ok(value)
    }

    /// A path of names under a variable (`ctx._source.a.b`, `params['k']`), read in place:
    /// reading one field never copies the whole document. `None` for any other shape.
    fn in_place(&self, node: &Node) -> Option<Run<&Value>> {
        match node {
            Node::Var(name) => Some(self.vars.get(name).ok_or_else(|| format!("cannot resolve symbol [{name}]"))),
            Node::Field(inner, name) => Some(self.in_place(inner)?.and_then(|base| field_ref(base, name))),
            Node::Index(inner, key) => match key.as_ref() {
                Node::Lit(Value::String(k)) => Some(self.in_place(inner)?.and_then(|base| field_ref(base, k))),
                _ => None,
            },
            _ => None,
        }
    }

    fn compute(&mut self, node: &Node) -> Run<Value> {
        if let Some(found) = self.in_place(node) {
            return found.cloned();
        }
        Ok(match node {
            Node::Lit(v) => v.clone(),
            Node::Var(name) => self.vars.get(name).cloned().ok_or_else(|| format!("cannot resolve symbol [{name}]"))?,
            Node::Field(inner, name) => {
                let base = self.eval(inner)?;
                field(&base, name)?
            }
            Node::Index(inner, key) => {
                let (base, key) = (self.eval(inner)?, self.eval(key)?);
                match (&base, &key) {
                    (Value::Object(o), Value::String(k)) => o.get(k).cloned().unwrap_or(Value::Null),
                    (Value::Array(a), _) => a.get(index(&key, a.len())?).cloned().unwrap_or(Value::Null),
                    (Value::Null, _) => return Err("null pointer: indexing a null value".into()),
                    _ => return Err(format!("cannot index [{}] with [{key}]", kind(&base))),
                }
            }
            Node::Method(receiver, name, args) => {
                let args = args.iter().map(|a| self.eval(a)).collect::<Run<Vec<_>>>()?;
                if is_mutating(name) {
                    let target = self.place(receiver)?;
                    return call_mut(target, name, args);
                }
                let base = self.eval(receiver)?;
                call(&base, name, &args)?
            }
            Node::Unary("!", inner) => Value::Bool(!truth(&self.eval(inner)?)?),
            Node::Unary(_, inner) => binary("-", &Value::from(0), &self.eval(inner)?)?,
            Node::Binary("&&", a, b) => Value::Bool(truth(&self.eval(a)?)? && truth(&self.eval(b)?)?),
            Node::Binary("||", a, b) => Value::Bool(truth(&self.eval(a)?)? || truth(&self.eval(b)?)?),
            Node::Binary(op, a, b) => {
                let (a, b) = (self.eval(a)?, self.eval(b)?);
                binary(op, &a, &b)?
            }
            Node::Ternary(cond, then, other) => {
                let pick = if truth(&self.eval(cond)?)? { then } else { other };
                self.eval(pick)?
            }
            Node::List(items) => Value::Array(items.iter().map(|i| self.eval(i)).collect::<Run<Vec<_>>>()?),
            Node::NewMap => Value::Object(Map::new()),
        })
    }

    /// The value `node` names, for writing: a variable, a key of a map (created when missing,
    /// as `put` would) or an element of a list.
    fn place(&mut self, node: &Node) -> Run<&mut Value> {
        let mut steps = Vec::new();
        let mut at = node;
        let root = loop {
            match at {
                Node::Var(name) => break name.clone(),
                Node::Field(inner, name) => {
                    steps.push(Step::Key(name.clone()));
                    at = inner;
                }
                Node::Index(inner, key) => {
                    let key = self.eval(key)?;
                    steps.push(match key {
                        Value::String(k) => Step::Key(k),
                        other => Step::At(index(&other, usize::MAX)?),
                    });
                    at = inner;
                }
                _ => return Err("the left side of an assignment must be a variable, a field or an element".into()),
            }
        };
        if matches!(root.as_str(), "params") {
            return Err("params are read-only".into());
        }
        let mut value = self.vars.get_mut(&root).ok_or_else(|| format!("cannot resolve symbol [{root}]"))?;
        for step in steps.into_iter().rev() {
            value = match (value, step) {
                (Value::Object(o), Step::Key(k)) => o.entry(k).or_insert(Value::Null),
                (Value::Array(a), Step::At(i)) => {
                    let len = a.len();
                    a.get_mut(i).ok_or_else(|| format!("index {i} out of bounds for length {len}"))?
                }
                (Value::Null, _) => return Err("null pointer: a field of a null value".into()),
                (other, _) => return Err(format!("cannot reach into a {}", kind(other))),
            };
        }
        Ok(value)
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "String",
        Value::Array(_) => "List",
        Value::Object(_) => "Map",
    }
}

fn truth(v: &Value) -> Run<bool> {
    v.as_bool().ok_or_else(|| format!("cannot cast {} to boolean", kind(v)))
}

fn index(v: &Value, len: usize) -> Run<usize> {
    let i = v.as_i64().ok_or_else(|| format!("an index must be an integer, not {}", kind(v)))?;
    usize::try_from(i).ok().filter(|i| len == usize::MAX || *i < len).ok_or_else(|| {
        if len == usize::MAX {
            format!("index {i} out of bounds")
        } else {
            format!("index {i} out of bounds for length {len}")
        }
    })
}

static NULL: Value = Value::Null;

/// `field`, by reference; a list's `length` is not stored anywhere, so it is left to `field`.
fn field_ref<'a>(base: &'a Value, name: &str) -> Run<&'a Value> {
    match base {
        Value::Object(o) => Ok(o.get(name).unwrap_or(&NULL)),
        Value::Null => Err(format!("null pointer: reading [{name}] of a null value")),
        other => Err(format!("a {} has no field [{name}]", kind(other))),
    }
}

fn field(base: &Value, name: &str) -> Run<Value> {
    match base {
        Value::Object(o) => Ok(o.get(name).cloned().unwrap_or(Value::Null)),
        Value::Array(a) if name == "length" => Ok(Value::from(a.len())),
        Value::Null => Err(format!("null pointer: reading [{name}] of a null value")),
        other => Err(format!("a {} has no field [{name}]", kind(other))),
    }
}

/// Java's text of a value, for string concatenation.
fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or(0.0);
            if f.fract() == 0.0 && f.abs() < 1e7 {
                format!("{f:.1}")
            } else {
                f.to_string()
            }
        }
        other => other.to_string(),
    }
}

fn number(f: f64) -> Run<Value> {
    Number::from_f64(f).map(Value::Number).ok_or_else(|| "the result is not a finite number".into())
}

pub(super) fn binary(op: &str, a: &Value, b: &Value) -> Run<Value> {
    if op == "+" && (a.is_string() || b.is_string()) {
        return Ok(Value::String(text(a) + &text(b)));
    }
    match op {
        "==" => return Ok(Value::Bool(equal(a, b))),
        "!=" => return Ok(Value::Bool(!equal(a, b))),
        _ => {}
    }
    if let (Value::String(x), Value::String(y)) = (a, b) {
        return Ok(Value::Bool(match op {
            "<" => x < y,
            "<=" => x <= y,
            ">" => x > y,
            ">=" => x >= y,
            _ => return Err(format!("cannot apply [{op}] to strings")),
        }));
    }
    let (Value::Number(x), Value::Number(y)) = (a, b) else {
        let missing = if a.is_null() || b.is_null() { "null pointer: " } else { "" };
        return Err(format!("{missing}cannot apply [{op}] to {} and {}", kind(a), kind(b)));
    };
    if let (Some(x), Some(y)) = (x.as_i64(), y.as_i64()) {
        let out = match op {
            "+" => x.checked_add(y),
            "-" => x.checked_sub(y),
            "*" => x.checked_mul(y),
            "/" | "%" if y == 0 => return Err("division by zero".into()),
            "/" => x.checked_div(y),
            "%" => x.checked_rem(y),
            "<" => return Ok(Value::Bool(x < y)),
            "<=" => return Ok(Value::Bool(x <= y)),
            ">" => return Ok(Value::Bool(x > y)),
            ">=" => return Ok(Value::Bool(x >= y)),
            _ => return Err(format!("unknown operator [{op}]")),
        };
        return out.map(Value::from).ok_or_else(|| "long overflow".into());
    }
    let (x, y) = (x.as_f64().unwrap_or(f64::NAN), y.as_f64().unwrap_or(f64::NAN));
    match op {
        "+" => number(x + y),
        "-" => number(x - y),
        "*" => number(x * y),
        "/" => number(x / y),
        "%" => number(x % y),
        "<" => Ok(Value::Bool(x < y)),
        "<=" => Ok(Value::Bool(x <= y)),
        ">" => Ok(Value::Bool(x > y)),
        ">=" => Ok(Value::Bool(x >= y)),
        _ => Err(format!("unknown operator [{op}]")),
    }
}

/// Java's `equals` across JSON values: numbers by value (1 == 1.0 as Painless's `==` does).
fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

fn is_mutating(name: &str) -> bool {
    matches!(name, "add" | "addAll" | "remove" | "put" | "putAll" | "clear" | "removeIf")
}

fn arity(name: &str, args: &[Value], n: usize) -> Run<()> {
    if args.len() == n {
        return Ok(());
    }
    Err(format!("method [{name}] takes {n} argument(s), not {}", args.len()))
}

/// A method that changes its receiver (a list or map inside `ctx` or a local).
fn call_mut(target: &mut Value, name: &str, mut args: Vec<Value>) -> Run<Value> {
    match (target, name) {
        (Value::Array(list), "add") if args.len() == 1 => {
            list.push(args.pop().unwrap_or(Value::Null));
            Ok(Value::Bool(true))
        }
        (Value::Array(list), "add") if args.len() == 2 => {
            let i = index(&args[0], list.len() + 1)?;
            list.insert(i, args.pop().unwrap_or(Value::Null));
            Ok(Value::Null)
        }
        (Value::Array(list), "addAll") => {
            arity(name, &args, 1)?;
            let Value::Array(more) = args.pop().unwrap_or(Value::Null) else {
                return Err("addAll takes a list".into());
            };
            list.extend(more);
            Ok(Value::Bool(true))
        }
        // `remove(int)` removes at an index; `remove(Object)` the first equal element.
        (Value::Array(list), "remove") => {
            arity(name, &args, 1)?;
            if let Some(i) = args[0].as_i64().filter(|_| args[0].is_i64() || args[0].is_u64()) {
                let len = list.len();
                let i = usize::try_from(i).ok().filter(|i| *i < len);
                let i = i.ok_or_else(|| format!("index {} out of bounds for length {len}", args[0]))?;
                return Ok(list.remove(i));
            }
            let found = list.iter().position(|v| equal(v, &args[0]));
            Ok(Value::Bool(found.map(|i| list.remove(i)).is_some()))
        }
        (Value::Object(map), "put") => {
            arity(name, &args, 2)?;
            let value = args.pop().unwrap_or(Value::Null);
            let key = args.pop().map(|k| text(&k)).unwrap_or_default();
            Ok(map.insert(key, value).unwrap_or(Value::Null))
        }
        (Value::Object(map), "putAll") => {
            arity(name, &args, 1)?;
            let Value::Object(more) = args.pop().unwrap_or(Value::Null) else {
                return Err("putAll takes a map".into());
            };
            map.extend(more);
            Ok(Value::Null)
        }
        (Value::Object(map), "remove") => {
            arity(name, &args, 1)?;
            Ok(map.remove(&text(&args[0])).unwrap_or(Value::Null))
        }
        (Value::Array(list), "clear") => {
            list.clear();
            Ok(Value::Null)
        }
        (Value::Object(map), "clear") => {
            map.clear();
            Ok(Value::Null)
        }
        (Value::Null, _) => Err(format!("null pointer: calling [{name}] on a null value")),
        (other, _) => Err(format!("unknown method [{name}] of {}", kind(other))),
    }
}

/// A method that only reads its receiver.
fn call(base: &Value, name: &str, args: &[Value]) -> Run<Value> {
    let str_arg = |i: usize| args.get(i).and_then(Value::as_str).ok_or_else(|| format!("[{name}] takes a String"));
    Ok(match (base, name) {
        (_, "equals") => {
            arity(name, args, 1)?;
            Value::Bool(equal(base, &args[0]))
        }
        (Value::Array(l), "size") => Value::from(l.len()),
        (Value::Object(m), "size") => Value::from(m.len()),
        (Value::Array(l), "isEmpty") => Value::Bool(l.is_empty()),
        (Value::Object(m), "isEmpty") => Value::Bool(m.is_empty()),
        (Value::String(s), "isEmpty") => Value::Bool(s.is_empty()),
        (Value::Array(l), "contains") => {
            arity(name, args, 1)?;
            Value::Bool(l.iter().any(|v| equal(v, &args[0])))
        }
        (Value::Array(l), "indexOf") => {
            arity(name, args, 1)?;
            Value::from(l.iter().position(|v| equal(v, &args[0])).map_or(-1, |i| i as i64))
        }
        (Value::Array(l), "get") => {
            arity(name, args, 1)?;
            l[index(&args[0], l.len())?].clone()
        }
        (Value::Object(m), "containsKey") => Value::Bool(m.contains_key(&text(&args[0]))),
        (Value::Object(m), "get") => m.get(&text(&args[0])).cloned().unwrap_or(Value::Null),
        (Value::Object(m), "getOrDefault") => {
            arity(name, args, 2)?;
            m.get(&text(&args[0])).cloned().unwrap_or_else(|| args[1].clone())
        }
        (Value::Object(m), "keySet") => Value::Array(m.keys().cloned().map(Value::String).collect()),
        (Value::Object(m), "values") => Value::Array(m.values().cloned().collect()),
        (Value::String(s), "length") => Value::from(s.chars().count()),
        (Value::String(s), "contains") => Value::Bool(s.contains(str_arg(0)?)),
        (Value::String(s), "startsWith") => Value::Bool(s.starts_with(str_arg(0)?)),
        (Value::String(s), "endsWith") => Value::Bool(s.ends_with(str_arg(0)?)),
        (Value::String(s), "toLowerCase") => Value::String(s.to_lowercase()),
        (Value::String(s), "toUpperCase") => Value::String(s.to_uppercase()),
        (Value::String(s), "trim") => Value::String(s.trim().to_string()),
        (Value::String(s), "indexOf") => Value::from(s.find(str_arg(0)?).map_or(-1, |b| s[..b].chars().count() as i64)),
        (Value::String(s), "substring") => {
            let chars: Vec<char> = s.chars().collect();
            let from = index(args.first().unwrap_or(&Value::Null), chars.len() + 1)?;
            let to = match args.get(1) {
                Some(end) => index(end, chars.len() + 1)?,
                None => chars.len(),
            };
            if from > to {
                return Err(format!("begin {from}, end {to}, length {}", chars.len()));
            }
            Value::String(chars[from..to].iter().collect())
        }
        (Value::Null, _) => return Err(format!("null pointer: calling [{name}] on a null value")),
        (other, _) => return Err(format!("unknown method [{name}] of {}", kind(other))),
    })
}
