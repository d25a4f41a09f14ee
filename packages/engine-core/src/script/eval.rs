//! Evaluation with Java's numeric rules: int op int stays an integer (division truncates and
//! fails on zero), anything with a double is a double; null in arithmetic or comparison is
//! an error, as Painless's NullPointerException would be.

use super::moving_functions as mf;
use super::parser::{DocAccess, Expr};
use super::script_error;
use crate::error::Result;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Val {
    Int(i64),
    Num(f64),
    Bool(bool),
    Null,
}

impl Val {
    pub fn as_f64(self) -> Option<f64> {
        match self {
            Val::Int(i) => Some(i as f64),
            Val::Num(n) => Some(n),
            _ => None,
        }
    }

    fn type_name(self) -> &'static str {
        match self {
            Val::Int(_) => "Integer",
            Val::Num(_) => "Double",
            Val::Bool(_) => "Boolean",
            Val::Null => "null",
        }
    }
}

/// A document's values of a field (`doc['field']`), or why they cannot be read.
pub type DocLookup<'a> = &'a dyn Fn(&str) -> Result<Vec<Val>>;

/// What a script can see: `params.*`, in `moving_fn` the window `values`, and in script
/// queries and fields the document's values.
pub struct Context<'a> {
    pub params: &'a dyn Fn(&str) -> Option<Val>,
    pub values: Option<&'a [f64]>,
    pub doc: Option<DocLookup<'a>>,
}

pub fn eval(e: &Expr, ctx: &Context) -> Result<Val> {
    Ok(match e {
        Expr::Num(n, true) => Val::Int(*n as i64),
        Expr::Num(n, false) => Val::Num(*n),
        Expr::Bool(b) => Val::Bool(*b),
        Expr::Null => Val::Null,
        Expr::Param(name) => (ctx.params)(name).unwrap_or(Val::Null),
        Expr::Values => return Err(script_error("[values] can only be passed to MovingFunctions".into())),
        Expr::Unary(op, inner) => match (*op, eval(inner, ctx)?) {
            ("!", Val::Bool(b)) => Val::Bool(!b),
            ("-", Val::Int(i)) => Val::Int(i.wrapping_neg()),
            ("-", Val::Num(n)) => Val::Num(-n),
            ("+", v @ (Val::Int(_) | Val::Num(_))) => v,
            (op, v) => return Err(script_error(format!("cannot apply [{op}] to a {}", v.type_name()))),
        },
        Expr::Ternary(c, a, b) => match eval(c, ctx)? {
            Val::Bool(true) => eval(a, ctx)?,
            Val::Bool(false) => eval(b, ctx)?,
            v => return Err(script_error(format!("cannot cast {} to boolean", v.type_name()))),
        },
        Expr::Binary(op, a, b) => binary(op, a, b, ctx)?,
        Expr::Call(class, func, args) => call(class, func, args, ctx)?,
        Expr::Doc(field, access) => {
            let Some(doc) = ctx.doc else {
                return Err(super::unsupported(format!("doc['{field}'] outside a script query or script field")));
            };
            let values = doc(field)?;
            match access {
                DocAccess::Size => Val::Int(values.len() as i64),
                DocAccess::Empty => Val::Bool(values.is_empty()),
                DocAccess::Value => *values.first().ok_or_else(|| {
                    script_error("A document doesn't have a value for a field! Use doc[<field>].size()==0 to check if a document is missing a field!".into())
                })?,
            }
        }
    })
}

fn binary(op: &str, a: &Expr, b: &Expr, ctx: &Context) -> Result<Val> {
    // Short-circuit like Java.
    if op == "&&" || op == "||" {
        let left = as_bool(eval(a, ctx)?)?;
        if (op == "&&" && !left) || (op == "||" && left) {
            return Ok(Val::Bool(left));
        }
        return Ok(Val::Bool(as_bool(eval(b, ctx)?)?));
    }
    let (x, y) = (eval(a, ctx)?, eval(b, ctx)?);
    if op == "==" || op == "!=" {
        let same = match (x, y) {
            (Val::Null, Val::Null) => true,
            (Val::Null, _) | (_, Val::Null) => false,
            (Val::Bool(p), Val::Bool(q)) => p == q,
            _ => match (x.as_f64(), y.as_f64()) {
                (Some(p), Some(q)) => p == q,
                _ => false,
            },
        };
        return Ok(Val::Bool(same == (op == "==")));
    }
    let bad = || script_error(format!("cannot apply [{op}] to {} and {}", x.type_name(), y.type_name()));
    if let (Val::Int(p), Val::Int(q)) = (x, y) {
        return Ok(match op {
            "+" => Val::Int(p.wrapping_add(q)),
            "-" => Val::Int(p.wrapping_sub(q)),
            "*" => Val::Int(p.wrapping_mul(q)),
            "/" | "%" if q == 0 => return Err(script_error("/ by zero".into())),
            "/" => Val::Int(p.wrapping_div(q)),
            "%" => Val::Int(p.wrapping_rem(q)),
            "<" => Val::Bool(p < q),
            "<=" => Val::Bool(p <= q),
            ">" => Val::Bool(p > q),
            ">=" => Val::Bool(p >= q),
            _ => return Err(bad()),
        });
    }
    let (p, q) = (x.as_f64().ok_or_else(bad)?, y.as_f64().ok_or_else(bad)?);
    Ok(match op {
        "+" => Val::Num(p + q),
        "-" => Val::Num(p - q),
        "*" => Val::Num(p * q),
        "/" => Val::Num(p / q),
        "%" => Val::Num(p % q),
        "<" => Val::Bool(p < q),
        "<=" => Val::Bool(p <= q),
        ">" => Val::Bool(p > q),
        ">=" => Val::Bool(p >= q),
        _ => return Err(bad()),
    })
}

fn as_bool(v: Val) -> Result<bool> {
    match v {
        Val::Bool(b) => Ok(b),
        other => Err(script_error(format!("cannot cast {} to boolean", other.type_name()))),
    }
}

fn number(v: Val, func: &str) -> Result<f64> {
    v.as_f64().ok_or_else(|| script_error(format!("[{func}] expects numbers, got {}", v.type_name())))
}

fn call(class: &str, func: &str, args: &[Expr], ctx: &Context) -> Result<Val> {
    let arity = |n: usize| {
        if args.len() == n {
            Ok(())
        } else {
            Err(super::unsupported(format!("{class}.{func} with {} arguments", args.len())))
        }
    };
    if class == "MovingFunctions" {
        let window = match (args.first(), ctx.values) {
            (Some(Expr::Values), Some(v)) => v,
            _ => return Err(script_error(format!("MovingFunctions.{func} takes the window [values] first"))),
        };
        let num = |i: usize| -> Result<f64> { number(eval(&args[i], ctx)?, func) };
        let out = match func {
            "max" | "min" | "sum" | "unweightedAvg" | "linearWeightedAvg" => {
                arity(1)?;
                match func {
                    "max" => mf::max(window),
                    "min" => mf::min(window),
                    "sum" => mf::sum(window),
                    "unweightedAvg" => mf::unweighted_avg(window),
                    _ => mf::linear_weighted_avg(window),
                }
            }
            "ewma" => {
                arity(2)?;
                mf::ewma(window, num(1)?)
            }
            "stdDev" => {
                arity(2)?;
                mf::std_dev(window, num(1)?)
            }
            "holt" => {
                arity(3)?;
                mf::holt(window, num(1)?, num(2)?)
            }
            other => return Err(super::unsupported(format!("MovingFunctions.{other}"))),
        };
        return Ok(Val::Num(out));
    }
    let vals: Vec<Val> = args.iter().map(|a| eval(a, ctx)).collect::<Result<_>>()?;
    match func {
        "max" | "min" => {
            arity(2)?;
            if let (Val::Int(p), Val::Int(q)) = (vals[0], vals[1]) {
                return Ok(Val::Int(if func == "max" { p.max(q) } else { p.min(q) }));
            }
            let (p, q) = (number(vals[0], func)?, number(vals[1], func)?);
            // Java's Math.max/min propagate NaN.
            Ok(Val::Num(if p.is_nan() || q.is_nan() {
                f64::NAN
            } else if func == "max" {
                p.max(q)
            } else {
                p.min(q)
            }))
        }
        "abs" => {
            arity(1)?;
            Ok(match vals[0] {
                Val::Int(i) => Val::Int(i.wrapping_abs()),
                v => Val::Num(number(v, func)?.abs()),
            })
        }
        "round" => {
            arity(1)?;
            Ok(Val::Int((number(vals[0], func)? + 0.5).floor() as i64))
        }
        "pow" => {
            arity(2)?;
            Ok(Val::Num(number(vals[0], func)?.powf(number(vals[1], func)?)))
        }
        "sqrt" | "log" | "log10" | "exp" | "floor" | "ceil" => {
            arity(1)?;
            let x = number(vals[0], func)?;
            Ok(Val::Num(match func {
                "sqrt" => x.sqrt(),
                "log" => x.ln(),
                "log10" => x.log10(),
                "exp" => x.exp(),
                "floor" => x.floor(),
                _ => x.ceil(),
            }))
        }
        other => Err(super::unsupported(format!("Math.{other}"))),
    }
}
