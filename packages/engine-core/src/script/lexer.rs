//! Tokens of the Painless expression subset. Anything the lexer does not know (string
//! literals, assignment, brackets other than `params['x']`) is rejected here with the
//! character that stopped it, so unsupported scripts fail before they run.

use super::unsupported;
use crate::error::Result;

#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    Num(f64, bool),
    Ident(String),
    Str(String),
    Op(&'static str),
}

/// Two-character operators first: the lexer takes the longest that matches. The compound
/// assignments, steps and braces are for update scripts (`update/parse.rs`); the expression
/// parser refuses them like any other token it does not know.
const OPS: [&str; 32] = [
    "&&", "||", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "++", "--", "<", ">", "+", "-", "*", "/", "%", "!",
    "?", ":", "(", ")", ",", ".", ";", "[", "]", "=", "{", "}",
];

/// Longest scripts we accept: the rows use one-liners; this bounds parse work.
const MAX_SOURCE_LEN: usize = 4096;

pub fn tokenize(src: &str) -> Result<Vec<Token>> {
    if src.len() > MAX_SOURCE_LEN {
        return Err(unsupported(format!("script longer than {MAX_SOURCE_LEN} characters")));
    }
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || (c == '.' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit())) {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            if i < chars.len() && matches!(chars[i], 'e' | 'E') {
                i += 1;
                if i < chars.len() && matches!(chars[i], '+' | '-') {
                    i += 1;
                }
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
            }
            let text: String = chars[start..i].iter().collect();
            // Java literal suffixes: d/f make a double, L keeps an integer.
            let mut is_int = !text.contains(['.', 'e', 'E']);
            if i < chars.len() && matches!(chars[i], 'd' | 'D' | 'f' | 'F') {
                is_int = false;
                i += 1;
            } else if i < chars.len() && matches!(chars[i], 'l' | 'L') {
                i += 1;
            }
            let n: f64 = text.parse().map_err(|_| unsupported(format!("number literal [{text}]")))?;
            out.push(Token::Num(n, is_int));
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token::Ident(chars[start..i].iter().collect()));
        } else if c == '\'' || c == '"' {
            let start = i + 1;
            i += 1;
            while i < chars.len() && chars[i] != c {
                if chars[i] == '\\' {
                    return Err(unsupported("escape sequences in string literals".into()));
                }
                i += 1;
            }
            if i >= chars.len() {
                return Err(unsupported("unterminated string literal".into()));
            }
            out.push(Token::Str(chars[start..i].iter().collect()));
            i += 1;
        } else {
            let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
            let op =
                OPS.iter().find(|op| rest.starts_with(**op)).ok_or_else(|| unsupported(format!("character [{c}]")))?;
            out.push(Token::Op(op));
            i += op.len();
        }
    }
    Ok(out)
}
