//! The `simple_query_string` syntax, with the semantics of Lucene's SimpleQueryParser: `+`
//! and `|` join clauses left to right (a change of operator wraps what came before), `-`
//! negates the next clause as `match_all -clause`, `"..."~N` phrases, `word*` prefixes,
//! `word~N` fuzzy terms, `( )` precedence, `\` escapes. It never fails: characters that
//! cannot start or close anything are ignored, like Lucene does.

use crate::query::ast::{QsLeaf, QsNode};

pub const AND: u32 = 1;
pub const NOT: u32 = 1 << 1;
pub const OR: u32 = 1 << 2;
pub const PREFIX: u32 = 1 << 3;
pub const PHRASE: u32 = 1 << 4;
pub const PRECEDENCE: u32 = 1 << 5;
pub const ESCAPE: u32 = 1 << 6;
pub const WHITESPACE: u32 = 1 << 7;
pub const FUZZY: u32 = 1 << 8;
pub const NEAR: u32 = 1 << 9;
pub const SLOP: u32 = 1 << 10;
pub const ALL: u32 = (1 << 11) - 1;

/// `"AND|PREFIX"`, `"ALL"`, `"NONE"` -> bit mask; unknown names are an error (as in ES).
pub fn parse_flags(spec: &str) -> Result<u32, String> {
    let mut flags = 0;
    for name in spec.split('|').map(|s| s.trim().to_ascii_uppercase()).filter(|s| !s.is_empty()) {
        flags |= match name.as_str() {
            "ALL" => ALL,
            "NONE" => 0,
            "AND" => AND,
            "NOT" => NOT,
            "OR" => OR,
            "PREFIX" => PREFIX,
            "PHRASE" => PHRASE,
            "PRECEDENCE" => PRECEDENCE,
            "ESCAPE" => ESCAPE,
            "WHITESPACE" => WHITESPACE,
            "FUZZY" => FUZZY,
            "NEAR" => NEAR,
            "SLOP" => SLOP,
            other => return Err(format!("Unknown simple_query_string flag [{other}]")),
        };
    }
    Ok(flags)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Must,
    Should,
}

struct State {
    top: Option<QsNode>,
    current: Option<Op>,
    previous: Option<Op>,
    not: u32,
}

pub struct SimpleParser {
    chars: Vec<char>,
    pos: usize,
    flags: u32,
    default_and: bool,
}

impl SimpleParser {
    pub fn parse(text: &str, flags: u32, default_and: bool) -> Option<QsNode> {
        let mut parser = SimpleParser { chars: text.chars().collect(), pos: 0, flags, default_and };
        let end = parser.chars.len();
        parser.sub_query(end)
    }

    fn on(&self, flag: u32) -> bool {
        self.flags & flag != 0
    }

    fn sub_query(&mut self, end: usize) -> Option<QsNode> {
        let mut st = State { top: None, current: None, previous: None, not: 0 };
        while self.pos < end {
            let c = self.chars[self.pos];
            if c == '(' && self.on(PRECEDENCE) {
                self.consume_sub_query(&mut st, end);
            } else if c == ')' && self.on(PRECEDENCE) {
                self.pos += 1;
            } else if c == '"' && self.on(PHRASE) {
                self.consume_phrase(&mut st, end);
            } else if (c == '+' && self.on(AND)) || (c == '|' && self.on(OR)) {
                // An operator before any clause has nothing to join and is ignored.
                if st.current.is_none() && st.top.is_some() {
                    st.current = Some(if c == '+' { Op::Must } else { Op::Should });
                }
                self.pos += 1;
            } else if c == '-' && self.on(NOT) {
                st.not += 1;
                self.pos += 1;
                continue;
            } else if matches!(c, ' ' | '\t' | '\n' | '\r') && self.on(WHITESPACE) {
                self.pos += 1;
            } else {
                self.consume_token(&mut st, end);
            }
            st.not = 0;
        }
        st.top
    }

    fn consume_sub_query(&mut self, st: &mut State, end: usize) {
        let start = self.pos + 1;
        let mut depth = 1;
        let mut i = start;
        let mut escaped = false;
        while i < end {
            let c = self.chars[i];
            if escaped {
                escaped = false;
            } else if c == '\\' && self.on(ESCAPE) {
                escaped = true;
            } else if c == '(' {
                depth += 1;
            } else if c == ')' {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            i += 1;
        }
        if i >= end {
            // Never closed: the `(` is extraneous.
            self.pos = start;
        } else if i == start {
            st.current = None;
            self.pos = i + 1;
        } else {
            self.pos = start;
            let branch = self.sub_query(i);
            self.pos = i + 1;
            build(st, branch, self.default_and);
        }
    }

    fn consume_phrase(&mut self, st: &mut State, end: usize) {
        let start = self.pos + 1;
        let mut i = start;
        let mut text = String::new();
        let mut escaped = false;
        while i < end {
            let c = self.chars[i];
            if !escaped && c == '\\' && self.on(ESCAPE) {
                escaped = true;
                i += 1;
                continue;
            }
            if !escaped && c == '"' {
                break;
            }
            escaped = false;
            text.push(c);
            i += 1;
        }
        if i >= end {
            // Never closed: the `"` is extraneous.
            self.pos = start;
            return;
        }
        self.pos = i + 1;
        if i == start {
            st.current = None;
            return;
        }
        let mut slop = 0;
        if self.on(NEAR) && self.pos < end && self.chars[self.pos] == '~' {
            self.pos += 1;
            // `~` closing the query means no slop; `~` before a delimiter means 2, as in Lucene.
            slop = if self.pos >= end { 0 } else { self.read_number(end).unwrap_or(2) };
        }
        build(st, Some(leaf(QsLeaf::Phrase { text, slop })), self.default_and);
    }

    /// Lucene's parseFuzziness, past the `~`: everything up to the token's end; empty means
    /// 2, anything that is not a number means 0.
    fn read_number(&mut self, end: usize) -> Option<u32> {
        let start = self.pos;
        while self.pos < end && !self.token_finished(self.chars[self.pos]) {
            self.pos += 1;
        }
        let text: String = self.chars[start..self.pos].iter().collect();
        if text.is_empty() {
            return None;
        }
        Some(text.parse::<i64>().map_or(0, |n| n.max(0) as u32))
    }

    fn token_finished(&self, c: char) -> bool {
        (c == '"' && self.on(PHRASE))
            || (c == '|' && self.on(OR))
            || (c == '+' && self.on(AND))
            || ((c == '(' || c == ')') && self.on(PRECEDENCE))
            || (matches!(c, ' ' | '\t' | '\n' | '\r') && self.on(WHITESPACE))
    }

    fn consume_token(&mut self, st: &mut State, end: usize) {
        let mut text = String::new();
        let (mut escaped, mut prefix, mut fuzzy) = (false, false, false);
        while self.pos < end {
            let c = self.chars[self.pos];
            if !escaped {
                if c == '\\' && self.on(ESCAPE) {
                    escaped = true;
                    prefix = false;
                    self.pos += 1;
                    continue;
                }
                if self.token_finished(c) {
                    break;
                }
                if !text.is_empty() && c == '~' && self.on(FUZZY) {
                    fuzzy = true;
                    break;
                }
                prefix = !text.is_empty() && c == '*' && self.on(PREFIX);
            } else {
                escaped = false;
            }
            text.push(c);
            self.pos += 1;
        }
        if text.is_empty() {
            return;
        }
        let node = if fuzzy {
            self.pos += 1;
            // `~` alone means the largest supported distance, 2.
            let edits = self.read_number(end).unwrap_or(2).min(2) as u8;
            leaf(QsLeaf::Fuzzy { text, edits })
        } else if prefix {
            text.pop();
            leaf(QsLeaf::Prefix(text))
        } else {
            leaf(QsLeaf::Text(text))
        };
        build(st, Some(node), self.default_and);
    }
}

fn leaf(leaf: QsLeaf) -> QsNode {
    QsNode::Leaf { field: None, leaf }
}

/// Lucene's buildQueryTree: negation, then joining with the current (or default) operator.
fn build(st: &mut State, branch: Option<QsNode>, default_and: bool) {
    let Some(mut branch) = branch else { return };
    if st.not % 2 == 1 {
        branch = QsNode::Bool { must: vec![], should: vec![QsNode::MatchAll], must_not: vec![branch] };
    }
    let Some(top) = st.top.take() else {
        st.top = Some(branch);
        st.current = None;
        return;
    };
    let op = st.current.unwrap_or(if default_and { Op::Must } else { Op::Should });
    let mut top = if st.previous != Some(op) {
        match op {
            Op::Must => QsNode::Bool { must: vec![top], should: vec![], must_not: vec![] },
            Op::Should => QsNode::Bool { must: vec![], should: vec![top], must_not: vec![] },
        }
    } else {
        top
    };
    if let QsNode::Bool { must, should, .. } = &mut top {
        match op {
            Op::Must => must.push(branch),
            Op::Should => should.push(branch),
        }
    }
    st.top = Some(top);
    st.previous = Some(op);
    st.current = None;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> QsNode {
        leaf(QsLeaf::Text(s.into()))
    }

    #[test]
    fn operators_associate_left_to_right() {
        let tree = SimpleParser::parse("a b +c", ALL, false).unwrap();
        let inner = QsNode::Bool { must: vec![], should: vec![text("a"), text("b")], must_not: vec![] };
        assert_eq!(tree, QsNode::Bool { must: vec![inner, text("c")], should: vec![], must_not: vec![] });
    }

    #[test]
    fn negation_phrases_prefixes_and_fuzzy() {
        let tree = SimpleParser::parse("-a", ALL, false).unwrap();
        assert!(matches!(tree, QsNode::Bool { ref should, .. } if should == &[QsNode::MatchAll]));
        let tree = SimpleParser::parse("\"quick fox\"~2", ALL, false).unwrap();
        assert_eq!(tree, leaf(QsLeaf::Phrase { text: "quick fox".into(), slop: 2 }));
        assert_eq!(SimpleParser::parse("qui*", ALL, false).unwrap(), leaf(QsLeaf::Prefix("qui".into())));
        assert_eq!(
            SimpleParser::parse("fox~1", ALL, false).unwrap(),
            leaf(QsLeaf::Fuzzy { text: "fox".into(), edits: 1 })
        );
        assert_eq!(SimpleParser::parse("qui*", NONE_FOR_TEST, false).unwrap(), text("qui*"));
        assert_eq!(SimpleParser::parse("(a", ALL, false).unwrap(), text("a"));
        assert!(SimpleParser::parse("  ", ALL, false).is_none());
        assert_eq!(parse_flags("AND|prefix").unwrap(), AND | PREFIX);
        assert!(parse_flags("BOGUS").is_err());
    }

    const NONE_FOR_TEST: u32 = WHITESPACE;
}
