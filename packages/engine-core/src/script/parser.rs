//! Recursive-descent parser for the expression subset, with Java's precedence:
//! ternary < `||` < `&&` < equality < comparison < additive < multiplicative < unary.
//! Nesting is bounded so a hostile script cannot overflow the stack.

use super::lexer::Token;
use super::unsupported;
use crate::error::Result;

#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Num(f64, bool),
    Bool(bool),
    Null,
    /// `params.x` or `params['x']`.
    Param(String),
    /// `values` in a `moving_fn` script: the window.
    Values,
    Unary(&'static str, Box<Expr>),
    Binary(&'static str, Box<Expr>, Box<Expr>),
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `Math.f(..)` or `MovingFunctions.f(..)`: (class, function, arguments).
    Call(String, String, Vec<Expr>),
    /// `doc['field'].value`, `.size()` or `.empty`: the document's own values (script
    /// queries and script fields).
    Doc(String, DocAccess),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocAccess {
    Value,
    Size,
    Empty,
}

impl Expr {
    /// The fields a script reads through `doc[...]`.
    pub fn doc_fields(&self, out: &mut Vec<String>) {
        match self {
            Expr::Doc(field, _) if !out.contains(field) => out.push(field.clone()),
            Expr::Unary(_, e) => e.doc_fields(out),
            Expr::Binary(_, a, b) => {
                a.doc_fields(out);
                b.doc_fields(out);
            }
            Expr::Ternary(a, b, c) => {
                a.doc_fields(out);
                b.doc_fields(out);
                c.doc_fields(out);
            }
            Expr::Call(_, _, args) => args.iter().for_each(|a| a.doc_fields(out)),
            _ => {}
        }
    }
}

const MAX_DEPTH: usize = 64;

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    depth: usize,
}

/// Parses `[return] expr [;]`: the single-expression scripts pipeline aggregations use.
pub fn parse(tokens: Vec<Token>) -> Result<Expr> {
    let mut p = Parser { tokens, pos: 0, depth: 0 };
    if matches!(p.peek(), Some(Token::Ident(w)) if w == "return") {
        p.pos += 1;
    }
    let expr = p.expr()?;
    while p.eat(";") {}
    match p.peek() {
        None => Ok(expr),
        Some(t) => Err(unsupported(format!("statement or token [{}] after the expression", show(t)))),
    }
}

fn show(t: &Token) -> String {
    match t {
        Token::Num(n, _) => n.to_string(),
        Token::Ident(s) => s.clone(),
        Token::Str(s) => format!("'{s}'"),
        Token::Op(o) => o.to_string(),
    }
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn eat(&mut self, op: &str) -> bool {
        if matches!(self.peek(), Some(Token::Op(o)) if *o == op) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, op: &str) -> Result<()> {
        if self.eat(op) {
            Ok(())
        } else {
            let found = self.peek().map_or("end of script".to_string(), show);
            Err(unsupported(format!("expected [{op}] but found [{found}]")))
        }
    }

    fn ident(&mut self) -> Result<String> {
        match self.tokens.get(self.pos) {
            Some(Token::Ident(s)) => {
                self.pos += 1;
                Ok(s.clone())
            }
            other => Err(unsupported(format!(
                "expected a name but found [{}]",
                other.map_or("end of script".to_string(), show)
            ))),
        }
    }

    fn expr(&mut self) -> Result<Expr> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(unsupported(format!("expressions nested deeper than {MAX_DEPTH}")));
        }
        let cond = self.binary(0)?;
        let out = if self.eat("?") {
            let then = self.expr()?;
            self.expect(":")?;
            let other = self.expr()?;
            Expr::Ternary(Box::new(cond), Box::new(then), Box::new(other))
        } else {
            cond
        };
        self.depth -= 1;
        Ok(out)
    }

    /// Precedence climbing over the binary operator levels, loosest first.
    fn binary(&mut self, level: usize) -> Result<Expr> {
        const LEVELS: [&[&str]; 6] =
            [&["||"], &["&&"], &["==", "!="], &["<", "<=", ">", ">="], &["+", "-"], &["*", "/", "%"]];
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut left = self.binary(level + 1)?;
        loop {
            let op = match self.peek() {
                Some(Token::Op(o)) if LEVELS[level].contains(o) => *o,
                _ => return Ok(left),
            };
            self.pos += 1;
            let right = self.binary(level + 1)?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
    }

    fn unary(&mut self) -> Result<Expr> {
        for op in ["!", "-", "+"] {
            if self.eat(op) {
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    return Err(unsupported(format!("expressions nested deeper than {MAX_DEPTH}")));
                }
                let inner = self.unary()?;
                self.depth -= 1;
                return Ok(Expr::Unary(op, Box::new(inner)));
            }
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Expr> {
        let tok = self.tokens.get(self.pos).cloned();
        self.pos += 1;
        match tok {
            Some(Token::Num(n, int)) => Ok(Expr::Num(n, int)),
            Some(Token::Op("(")) => {
                if let Some(Token::Ident(t)) = self.peek() {
                    if matches!(t.as_str(), "double" | "int" | "long" | "float" | "def") {
                        return Err(unsupported(format!("cast to [{t}]")));
                    }
                }
                let e = self.expr()?;
                self.expect(")")?;
                Ok(e)
            }
            Some(Token::Ident(name)) => self.named(name),
            Some(t) => Err(unsupported(format!("token [{}]", show(&t)))),
            None => Err(unsupported("unexpected end of script".into())),
        }
    }

    fn named(&mut self, name: String) -> Result<Expr> {
        match name.as_str() {
            "true" => Ok(Expr::Bool(true)),
            "false" => Ok(Expr::Bool(false)),
            "null" => Ok(Expr::Null),
            "values" => Ok(Expr::Values),
            "doc" => {
                self.expect("[")?;
                let field = match self.tokens.get(self.pos).cloned() {
                    Some(Token::Str(s)) => s,
                    _ => return Err(unsupported("doc[...] with a non-string field name".into())),
                };
                self.pos += 1;
                self.expect("]")?;
                self.expect(".")?;
                let access = match self.ident()?.as_str() {
                    "value" => DocAccess::Value,
                    "empty" => DocAccess::Empty,
                    "size" | "length" => {
                        self.expect("(")?;
                        self.expect(")")?;
                        DocAccess::Size
                    }
                    other => return Err(unsupported(format!("doc[...].{other}"))),
                };
                Ok(Expr::Doc(field, access))
            }
            "params" => {
                if self.eat(".") {
                    return Ok(Expr::Param(self.ident()?));
                }
                self.expect("[")?;
                let key = match self.tokens.get(self.pos).cloned() {
                    Some(Token::Str(s)) => s,
                    _ => return Err(unsupported("params[...] with a non-string key".into())),
                };
                self.pos += 1;
                self.expect("]")?;
                Ok(Expr::Param(key))
            }
            "Math" | "MovingFunctions" => {
                self.expect(".")?;
                let func = self.ident()?;
                self.expect("(")?;
                let mut args = Vec::new();
                if !self.eat(")") {
                    loop {
                        args.push(self.expr()?);
                        if self.eat(")") {
                            break;
                        }
                        self.expect(",")?;
                    }
                }
                Ok(Expr::Call(name, func, args))
            }
            other => Err(unsupported(format!("identifier [{other}]"))),
        }
    }
}
