//! The statements of an update script: what `POST /{index}/_update/{id}` and bulk `update`
//! actions run against `ctx` (`ctx._source`, `ctx.op`). A small Painless subset: statements
//! separated by `;`, blocks, `if`/`else`, `def` locals, assignment (`=`, `+=`, `-=`, `*=`,
//! `/=`), `++`/`--`, method calls, and expressions over JSON values (strings, numbers,
//! booleans, `null`, list literals, `new ArrayList()`/`new HashMap()`). No loops: a script
//! runs in time bounded by its length. Anything else is refused before it runs.

use super::super::lexer::Token;
use super::super::unsupported;
use crate::error::Result;
use serde_json::Value;

/// Deepest nesting of expressions and blocks accepted.
const MAX_DEPTH: usize = 32;

#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Lit(Value),
    /// `ctx`, `params` or a `def` local.
    Var(String),
    Field(Box<Node>, String),
    Index(Box<Node>, Box<Node>),
    Method(Box<Node>, String, Vec<Node>),
    Unary(&'static str, Box<Node>),
    Binary(&'static str, Box<Node>, Box<Node>),
    Ternary(Box<Node>, Box<Node>, Box<Node>),
    List(Vec<Node>),
    NewMap,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    Expr(Node),
    /// `target op= value`; `None` is plain `=`.
    Assign(Node, Option<&'static str>, Node),
    /// `target++` (+1) or `target--` (-1).
    Step(Node, i64),
    If(Node, Vec<Stmt>, Vec<Stmt>),
    Def(String, Node),
    Return,
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    depth: usize,
}

pub fn parse(tokens: Vec<Token>) -> Result<Vec<Stmt>> {
    let mut p = Parser { tokens, pos: 0, depth: 0 };
    let mut out = Vec::new();
    while p.peek().is_some() {
        if let Some(stmt) = p.stmt()? {
            out.push(stmt);
        }
    }
    Ok(out)
}

fn show(t: Option<&Token>) -> String {
    match t {
        None => "end of script".into(),
        Some(Token::Num(n, _)) => n.to_string(),
        Some(Token::Ident(s)) => s.clone(),
        Some(Token::Str(s)) => format!("'{s}'"),
        Some(Token::Op(o)) => o.to_string(),
    }
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn eat(&mut self, op: &str) -> bool {
        let found = matches!(self.peek(), Some(Token::Op(o)) if *o == op);
        self.pos += usize::from(found);
        found
    }

    fn eat_word(&mut self, word: &str) -> bool {
        let found = matches!(self.peek(), Some(Token::Ident(w)) if w == word);
        self.pos += usize::from(found);
        found
    }

    fn expect(&mut self, op: &str) -> Result<()> {
        if self.eat(op) {
            return Ok(());
        }
        Err(unsupported(format!("expected [{op}] but found [{}]", show(self.peek()))))
    }

    fn ident(&mut self) -> Result<String> {
        match self.peek() {
            Some(Token::Ident(s)) => {
                let s = s.clone();
                self.pos += 1;
                Ok(s)
            }
            other => Err(unsupported(format!("expected a name but found [{}]", show(other)))),
        }
    }

    fn deeper(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(unsupported(format!("scripts nested deeper than {MAX_DEPTH}")));
        }
        Ok(())
    }

    /// One statement; `None` for an empty one (`;`).
    fn stmt(&mut self) -> Result<Option<Stmt>> {
        if self.eat(";") {
            return Ok(None);
        }
        if self.eat("{") {
            let body = self.block_rest()?;
            return Ok(Some(Stmt::If(Node::Lit(Value::Bool(true)), body, Vec::new())));
        }
        if self.eat_word("if") {
            self.expect("(")?;
            let cond = self.expr()?;
            self.expect(")")?;
            let then = self.branch()?;
            let other = if self.eat_word("else") { self.branch()? } else { Vec::new() };
            return Ok(Some(Stmt::If(cond, then, other)));
        }
        for word in ["for", "while", "do"] {
            if matches!(self.peek(), Some(Token::Ident(w)) if w == word) {
                return Err(unsupported(format!("[{word}] loops in update scripts")));
            }
        }
        if self.eat_word("return") {
            if !matches!(self.peek(), None | Some(Token::Op(";")) | Some(Token::Op("}"))) {
                self.expr()?;
            }
            self.eat(";");
            return Ok(Some(Stmt::Return));
        }
        if self.eat_word("def") {
            let name = self.ident()?;
            self.expect("=")?;
            let value = self.expr()?;
            self.end()?;
            return Ok(Some(Stmt::Def(name, value)));
        }
        let target = self.expr()?;
        let stmt = match self.peek() {
            Some(Token::Op(op @ ("=" | "+=" | "-=" | "*=" | "/="))) => {
                let op = *op;
                self.pos += 1;
                let value = self.expr()?;
                Stmt::Assign(target, (op != "=").then(|| &op[..1]), value)
            }
            Some(Token::Op("++")) => {
                self.pos += 1;
                Stmt::Step(target, 1)
            }
            Some(Token::Op("--")) => {
                self.pos += 1;
                Stmt::Step(target, -1)
            }
            _ => Stmt::Expr(target),
        };
        self.end()?;
        Ok(Some(stmt))
    }

    /// A statement ends at `;`, before `}`, or at the end of the script.
    fn end(&mut self) -> Result<()> {
        if self.eat(";") || matches!(self.peek(), None | Some(Token::Op("}"))) {
            return Ok(());
        }
        Err(unsupported(format!("expected [;] but found [{}]", show(self.peek()))))
    }

    fn branch(&mut self) -> Result<Vec<Stmt>> {
        if self.eat("{") {
            return self.block_rest();
        }
        Ok(self.stmt()?.into_iter().collect())
    }

    fn block_rest(&mut self) -> Result<Vec<Stmt>> {
        self.deeper()?;
        let mut body = Vec::new();
        while !self.eat("}") {
            if self.peek().is_none() {
                return Err(unsupported("a block without its closing [}]".into()));
            }
            if let Some(stmt) = self.stmt()? {
                body.push(stmt);
            }
        }
        self.depth -= 1;
        Ok(body)
    }

    fn expr(&mut self) -> Result<Node> {
        self.deeper()?;
        let cond = self.binary(0)?;
        let out = if self.eat("?") {
            let then = self.expr()?;
            self.expect(":")?;
            let other = self.expr()?;
            Node::Ternary(Box::new(cond), Box::new(then), Box::new(other))
        } else {
            cond
        };
        self.depth -= 1;
        Ok(out)
    }

    fn binary(&mut self, level: usize) -> Result<Node> {
        const LEVELS: [&[&str]; 6] =
            [&["||"], &["&&"], &["==", "!="], &["<", "<=", ">", ">="], &["+", "-"], &["*", "/", "%"]];
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut left = self.binary(level + 1)?;
        while let Some(Token::Op(o)) = self.peek() {
            let Some(op) = LEVELS[level].iter().find(|l| *l == o) else { break };
            self.pos += 1;
            let right = self.binary(level + 1)?;
            left = Node::Binary(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Node> {
        for op in ["!", "-"] {
            if self.eat(op) {
                self.deeper()?;
                let inner = self.unary()?;
                self.depth -= 1;
                return Ok(Node::Unary(op, Box::new(inner)));
            }
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Result<Node> {
        let mut node = self.primary()?;
        loop {
            if self.eat(".") {
                let name = self.ident()?;
                if self.eat("(") {
                    let args = self.args(")")?;
                    node = Node::Method(Box::new(node), name, args);
                } else {
                    node = Node::Field(Box::new(node), name);
                }
            } else if self.eat("[") {
                let key = self.expr()?;
                self.expect("]")?;
                node = Node::Index(Box::new(node), Box::new(key));
            } else {
                return Ok(node);
            }
        }
    }

    fn args(&mut self, close: &str) -> Result<Vec<Node>> {
        let mut args = Vec::new();
        if self.eat(close) {
            return Ok(args);
        }
        loop {
            args.push(self.expr()?);
            if self.eat(close) {
                return Ok(args);
            }
            self.expect(",")?;
        }
    }

    fn primary(&mut self) -> Result<Node> {
        let token = self.peek().cloned();
        self.pos += 1;
        Ok(match token {
            Some(Token::Num(n, true)) if n.abs() < 9.0e15 => Node::Lit(Value::from(n as i64)),
            Some(Token::Num(n, _)) => Node::Lit(serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)),
            Some(Token::Str(s)) => Node::Lit(Value::String(s)),
            Some(Token::Ident(w)) => match w.as_str() {
                "true" => Node::Lit(Value::Bool(true)),
                "false" => Node::Lit(Value::Bool(false)),
                "null" => Node::Lit(Value::Null),
                "new" => {
                    let class = self.ident()?;
                    self.expect("(")?;
                    self.expect(")")?;
                    match class.as_str() {
                        "ArrayList" | "LinkedList" | "HashSet" => Node::List(Vec::new()),
                        "HashMap" | "TreeMap" | "LinkedHashMap" => Node::NewMap,
                        other => return Err(unsupported(format!("new [{other}]"))),
                    }
                }
                _ => Node::Var(w),
            },
            Some(Token::Op("(")) => {
                let inner = self.expr()?;
                self.expect(")")?;
                inner
            }
            Some(Token::Op("[")) => {
                if self.eat(":") {
                    self.expect("]")?;
                    Node::NewMap
                } else {
                    Node::List(self.args("]")?)
                }
            }
            other => return Err(unsupported(format!("token [{}] where a value belongs", show(other.as_ref())))),
        })
    }
}
