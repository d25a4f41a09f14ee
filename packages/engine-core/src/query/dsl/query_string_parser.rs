//! A subset of Lucene's classic query syntax for `query_string`: terms, `"phrases"~N`,
//! `field:value`, `field:(group)`, `AND`/`OR`/`NOT`/`&&`/`||`/`!`, `+`/`-`, parentheses,
//! `prefix*` and `wild?ard`, `term~N`, `^boost`, ranges `[a TO b]`/`{a TO b}` and `>=a`,
//! `/regular expressions/`, `_exists_:field`, `*:*`. Clauses combine with Lucene's addClause rules. Anything else
//! (syntax errors) is an error, never a guess.

use crate::query::ast::{QsLeaf, QsNode};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Occur {
    Must,
    Should,
    MustNot,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Conj {
    None,
    And,
    Or,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mods {
    None,
    Req,
    Not,
}

pub struct QsParser {
    chars: Vec<char>,
    pos: usize,
    default_and: bool,
}

const SPECIAL: &str = "+-!():^[]\"{}~\\/";

impl QsParser {
    /// The tree, or None for a query without any clause (which matches nothing, as in ES).
    pub fn parse(text: &str, default_and: bool) -> Result<Option<QsNode>, String> {
        let mut p = QsParser { chars: text.chars().collect(), pos: 0, default_and };
        let node = p.query(None)?;
        p.skip_ws();
        if p.pos < p.chars.len() {
            return Err(format!("Cannot parse '{text}': Encountered \" \")\" \") \"\" at column {}.", p.pos));
        }
        Ok(node)
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    fn keyword(&mut self, word: &str) -> bool {
        let end = self.pos + word.len();
        let matches = end <= self.chars.len()
            && self.chars[self.pos..end].iter().copied().eq(word.chars())
            && self.chars.get(end).is_none_or(|c| c.is_whitespace() || *c == '(' || *c == '"');
        if matches {
            self.pos = end;
        }
        matches
    }

    fn symbol(&mut self, s: &str) -> bool {
        let end = self.pos + s.len();
        let matches = end <= self.chars.len() && self.chars[self.pos..end].iter().copied().eq(s.chars());
        if matches {
            self.pos = end;
        }
        matches
    }

    fn query(&mut self, field: Option<&str>) -> Result<Option<QsNode>, String> {
        let mut clauses: Vec<(Occur, QsNode)> = Vec::new();
        loop {
            self.skip_ws();
            if self.peek().is_none_or(|c| c == ')') {
                break;
            }
            let conj = if self.keyword("AND") || self.symbol("&&") {
                Conj::And
            } else if self.keyword("OR") || self.symbol("||") {
                Conj::Or
            } else {
                Conj::None
            };
            if conj != Conj::None && clauses.is_empty() {
                return Err("Cannot parse query: an operator needs a clause on its left".into());
            }
            self.skip_ws();
            let mods = if self.symbol("+") {
                Mods::Req
            } else if self.symbol("-") || self.symbol("!") || self.keyword("NOT") {
                Mods::Not
            } else {
                Mods::None
            };
            self.skip_ws();
            if self.peek().is_none_or(|c| c == ')') {
                return Err("Cannot parse query: Encountered <EOF> after an operator".into());
            }
            let clause = self.clause(field)?;
            self.add_clause(&mut clauses, conj, mods, clause);
        }
        Ok(match clauses.len() {
            0 => None,
            1 if clauses[0].0 != Occur::MustNot => clauses.pop().map(|c| c.1),
            _ => {
                let (mut must, mut should, mut must_not) = (vec![], vec![], vec![]);
                for (occur, node) in clauses {
                    match occur {
                        Occur::Must => must.push(node),
                        Occur::Should => should.push(node),
                        Occur::MustNot => must_not.push(node),
                    }
                }
                Some(QsNode::Bool { must, should, must_not })
            }
        })
    }

    /// Lucene QueryParserBase.addClause: a conjunction also changes the previous clause.
    fn add_clause(&self, clauses: &mut Vec<(Occur, QsNode)>, conj: Conj, mods: Mods, node: QsNode) {
        if let Some(last) = clauses.last_mut() {
            if conj == Conj::And && last.0 != Occur::MustNot {
                last.0 = Occur::Must;
            }
            if self.default_and && conj == Conj::Or && last.0 != Occur::MustNot {
                last.0 = Occur::Should;
            }
        }
        let prohibited = mods == Mods::Not;
        let required = if self.default_and {
            !prohibited && conj != Conj::Or
        } else {
            mods == Mods::Req || (conj == Conj::And && !prohibited)
        };
        let occur = match (required, prohibited) {
            (_, true) => Occur::MustNot,
            (true, false) => Occur::Must,
            (false, false) => Occur::Should,
        };
        clauses.push((occur, node));
    }

    fn clause(&mut self, field: Option<&str>) -> Result<QsNode, String> {
        let mut field = field.map(str::to_string);
        // `name:` before the value (a term directly followed by a colon).
        let save = self.pos;
        if let Some(c) = self.peek() {
            if c != '(' && c != '"' && c != '[' && c != '{' {
                let name = self.raw_term();
                if !name.is_empty() && self.symbol(":") {
                    self.skip_ws();
                    field = Some(name);
                } else {
                    self.pos = save;
                }
            }
        }
        let node = match self.peek() {
            Some('(') => {
                self.pos += 1;
                let inner = self.query(field.as_deref())?;
                self.skip_ws();
                if !self.symbol(")") {
                    return Err("Cannot parse query: Encountered <EOF>, expected \")\"".into());
                }
                inner.unwrap_or(QsNode::Bool { must: vec![], should: vec![], must_not: vec![] })
            }
            Some('"') => {
                let text = self.quoted()?;
                let slop = if self.symbol("~") { self.number()?.unwrap_or(0.0) as u32 } else { 0 };
                QsNode::Leaf { field, leaf: QsLeaf::Phrase { text, slop } }
            }
            Some('[') | Some('{') => QsNode::Leaf { field, leaf: self.range()? },
            Some('>') | Some('<') => QsNode::Leaf { field, leaf: self.comparison()? },
            Some('/') => QsNode::Leaf { field, leaf: QsLeaf::Regexp(self.regex()?) },
            Some(_) => self.term(field)?,
            None => return Err("Cannot parse query: Encountered <EOF>".into()),
        };
        let boost = if self.symbol("^") {
            Some(self.number()?.ok_or("Cannot parse query: a boost needs a number")? as f32)
        } else {
            None
        };
        Ok(node.boosted(boost))
    }

    /// `/pattern/`: the pattern as written (`\/` is a slash inside it), Lucene's syntax.
    fn regex(&mut self) -> Result<String, String> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            match self.peek() {
                None => return Err("Cannot parse query: a regular expression without its closing [/]".into()),
                Some('/') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some('\\') if self.chars.get(self.pos + 1) == Some(&'/') => {
                    out.push('/');
                    self.pos += 2;
                }
                Some(c) => {
                    out.push(c);
                    self.pos += 1;
                }
            }
        }
    }

    /// Term characters up to whitespace or a special character; `\` escapes one character.
    fn raw_term(&mut self) -> String {
        let mut out = String::new();
        while let Some(c) = self.peek() {
            if c == '\\' {
                if let Some(next) = self.chars.get(self.pos + 1) {
                    out.push(*next);
                    self.pos += 2;
                    continue;
                }
            }
            // `-` and `+` only operate at a term's start; inside a term they are text.
            let special = SPECIAL.contains(c) && !(!out.is_empty() && (c == '-' || c == '+'));
            if c.is_whitespace() || special {
                break;
            }
            out.push(c);
            self.pos += 1;
        }
        out
    }

    fn term(&mut self, field: Option<String>) -> Result<QsNode, String> {
        // Keep `*`/`?` visible: an escaped `\*` is literal text, not a wildcard.
        let start = self.pos;
        let text = self.raw_term();
        let raw: String = self.chars[start..self.pos].iter().collect();
        if text.is_empty() {
            return Err(format!("Cannot parse query: unexpected character [{}]", self.peek().unwrap_or(' ')));
        }
        if text == "*" && field.as_deref().is_none_or(|f| f == "*") {
            return Ok(QsNode::MatchAll);
        }
        if field.as_deref() == Some("_exists_") {
            return Ok(QsNode::Leaf { field: Some(text), leaf: QsLeaf::Exists });
        }
        if text == "*" {
            return Ok(QsNode::Leaf { field, leaf: QsLeaf::Exists });
        }
        let wild = raw.contains('*') || raw.contains('?');
        let leaf = if self.symbol("~") {
            // A bare `~` uses ES's default fuzziness, AUTO: 0, 1 or 2 edits by term length.
            let auto = match text.chars().count() {
                0..=2 => 0,
                3..=5 => 1,
                _ => 2,
            };
            let edits = self.number()?.map_or(auto, |n| n as u8).min(2);
            QsLeaf::Fuzzy { text, edits }
        } else if wild && !raw.contains('\\') {
            let body = &text[..text.len() - 1];
            if text.ends_with('*') && !body.contains(['*', '?']) {
                QsLeaf::Prefix(body.to_string())
            } else {
                QsLeaf::Wildcard(text)
            }
        } else if wild {
            return Err("escaped wildcards are not supported in query_string".into());
        } else {
            QsLeaf::Text(text)
        };
        Ok(QsNode::Leaf { field, leaf })
    }

    fn number(&mut self) -> Result<Option<f64>, String> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit() || c == '.') {
            self.pos += 1;
        }
        if start == self.pos {
            return Ok(None);
        }
        let s: String = self.chars[start..self.pos].iter().collect();
        s.parse().map(Some).map_err(|_| format!("Cannot parse query: bad number [{s}]"))
    }

    fn quoted(&mut self) -> Result<String, String> {
        self.pos += 1;
        let mut out = String::new();
        while let Some(c) = self.peek() {
            self.pos += 1;
            match c {
                '\\' => {
                    if let Some(next) = self.peek() {
                        out.push(next);
                        self.pos += 1;
                    }
                }
                '"' => return Ok(out),
                c => out.push(c),
            }
        }
        Err("Cannot parse query: Lexical error: unterminated quoted string".into())
    }

    fn bound(&mut self) -> Result<Option<String>, String> {
        self.skip_ws();
        let text = if self.peek() == Some('"') { self.quoted()? } else { self.range_word() };
        if text.is_empty() {
            return Err("Cannot parse query: a range needs two bounds".into());
        }
        Ok(if text == "*" { None } else { Some(text) })
    }

    fn range_word(&mut self) -> String {
        let mut out = String::new();
        while let Some(c) = self.peek() {
            if c.is_whitespace() || c == ']' || c == '}' {
                break;
            }
            out.push(c);
            self.pos += 1;
        }
        out
    }

    fn range(&mut self) -> Result<QsLeaf, String> {
        let include_lower = self.peek() == Some('[');
        self.pos += 1;
        let lower = self.bound()?;
        self.skip_ws();
        if !self.keyword("TO") {
            return Err("Cannot parse query: a range needs [TO]".into());
        }
        let upper = self.bound()?;
        self.skip_ws();
        let include_upper = match self.peek() {
            Some(']') => true,
            Some('}') => false,
            _ => return Err("Cannot parse query: unterminated range".into()),
        };
        self.pos += 1;
        Ok(QsLeaf::Range { lower, upper, include_lower, include_upper })
    }

    /// ES's `field:>=10` style one-sided ranges.
    fn comparison(&mut self) -> Result<QsLeaf, String> {
        let op: String = if self.symbol(">=") {
            ">=".into()
        } else if self.symbol("<=") {
            "<=".into()
        } else {
            self.pos += 1;
            self.chars[self.pos - 1].to_string()
        };
        let value = if self.peek() == Some('"') { self.quoted()? } else { self.raw_term() };
        if value.is_empty() {
            return Err("Cannot parse query: a comparison needs a value".into());
        }
        let v = Some(value);
        Ok(match op.as_str() {
            ">=" => QsLeaf::Range { lower: v, upper: None, include_lower: true, include_upper: true },
            ">" => QsLeaf::Range { lower: v, upper: None, include_lower: false, include_upper: true },
            "<=" => QsLeaf::Range { lower: None, upper: v, include_lower: true, include_upper: true },
            _ => QsLeaf::Range { lower: None, upper: v, include_lower: true, include_upper: false },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(field: Option<&str>, leaf: QsLeaf) -> QsNode {
        QsNode::Leaf { field: field.map(str::to_string), leaf }
    }

    fn text(s: &str) -> QsNode {
        leaf(None, QsLeaf::Text(s.into()))
    }

    #[test]
    fn lucene_clause_rules() {
        let tree = QsParser::parse("a AND b OR c", false).unwrap().unwrap();
        assert_eq!(tree, QsNode::Bool { must: vec![text("a"), text("b")], should: vec![text("c")], must_not: vec![] });
        let tree = QsParser::parse("+a -b c", false).unwrap().unwrap();
        assert_eq!(tree, QsNode::Bool { must: vec![text("a")], should: vec![text("c")], must_not: vec![text("b")] });
        let tree = QsParser::parse("a b", true).unwrap().unwrap();
        assert_eq!(tree, QsNode::Bool { must: vec![text("a"), text("b")], should: vec![], must_not: vec![] });
    }

    #[test]
    fn fields_phrases_ranges_and_wildcards() {
        let tree = QsParser::parse("title:\"quick fox\"~1", false).unwrap().unwrap();
        assert_eq!(tree, leaf(Some("title"), QsLeaf::Phrase { text: "quick fox".into(), slop: 1 }));
        let tree = QsParser::parse("bytes:[10 TO *}", false).unwrap().unwrap();
        let range = QsLeaf::Range { lower: Some("10".into()), upper: None, include_lower: true, include_upper: false };
        assert_eq!(tree, leaf(Some("bytes"), range));
        assert_eq!(QsParser::parse("qu*", false).unwrap().unwrap(), leaf(None, QsLeaf::Prefix("qu".into())));
        assert_eq!(QsParser::parse("q?ick", false).unwrap().unwrap(), leaf(None, QsLeaf::Wildcard("q?ick".into())));
        assert_eq!(QsParser::parse("foo-bar", false).unwrap().unwrap(), text("foo-bar"));
        let tree = QsParser::parse("title:(a b)^2", false).unwrap().unwrap();
        assert!(matches!(tree, QsNode::Boost(_, b) if b == 2.0));
    }

    #[test]
    fn regular_expressions() {
        let tree = QsParser::parse("host:/host-0[3-5]/", false).unwrap().unwrap();
        assert_eq!(tree, leaf(Some("host"), QsLeaf::Regexp("host-0[3-5]".into())));
        let tree = QsParser::parse("/a\\/b.*/^2", false).unwrap().unwrap();
        assert_eq!(tree, QsNode::Boost(Box::new(leaf(None, QsLeaf::Regexp("a/b.*".into()))), 2.0));
    }

    #[test]
    fn syntax_errors_are_errors() {
        for bad in ["(a", "a AND", "\"open", "a:[1 TO", "/re", "AND a", "a)"] {
            assert!(QsParser::parse(bad, false).is_err(), "{bad}");
        }
        assert_eq!(QsParser::parse("", false).unwrap(), None);
    }
}
