//! The interval operators of one document, as Lucene's interval iterators define them: each
//! takes its sources' intervals (sorted by start, as their iterators yield them) and yields
//! its own in the same order. The combinations walk their sources with cursors exactly as
//! Lucene's iterators step, so which intervals are found (the minimal ones) and the `gaps`
//! that `max_gaps` reads are Lucene's.

use crate::query::intervals_ast::IntervalsRelation;

/// Lucene's end-of-iteration marker (`NO_MORE_INTERVALS`).
const NO_MORE: i32 = i32::MAX;

/// One interval of positions, `start..=end`, and the positions inside it that its sources do
/// not cover (Lucene's `gaps()`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Iv {
    pub start: i32,
    pub end: i32,
    pub gaps: i32,
}

impl Iv {
    pub fn at(position: i32) -> Iv {
        Iv { start: position, end: position, gaps: 0 }
    }

    fn width(&self) -> i32 {
        self.end - self.start + 1
    }
}

/// An iterator over one source's intervals: before the first (`-1`), on one, or exhausted.
struct Cursor<'a> {
    list: &'a [Iv],
    at: isize,
}

impl<'a> Cursor<'a> {
    fn new(list: &'a [Iv]) -> Self {
        Cursor { list, at: -1 }
    }

    fn current(&self) -> Option<&Iv> {
        usize::try_from(self.at).ok().and_then(|i| self.list.get(i))
    }

    fn start(&self) -> i32 {
        if self.at < 0 {
            -1
        } else {
            self.current().map_or(NO_MORE, |iv| iv.start)
        }
    }

    fn end(&self) -> i32 {
        if self.at < 0 {
            -1
        } else {
            self.current().map_or(NO_MORE, |iv| iv.end)
        }
    }

    fn width(&self) -> i32 {
        self.current().map_or(0, Iv::width)
    }

    fn next(&mut self) -> i32 {
        if self.at < self.list.len() as isize {
            self.at += 1;
        }
        self.start()
    }
}

/// Every source in order, each starting after the previous one ends (Lucene's `ordered`).
pub fn ordered(sources: &[Vec<Iv>]) -> Vec<Iv> {
    if sources.len() == 1 {
        return sources[0].clone();
    }
    let mut its: Vec<Cursor> = sources.iter().map(|s| Cursor::new(s)).collect();
    its[0].next();
    std::iter::from_fn(|| ordered_next(&mut its)).collect()
}

/// The next minimal ordered interval: a match is found, then the first source moves on while
/// a tighter match (one ending before the found one's last source starts) may follow.
fn ordered_next(its: &mut [Cursor]) -> Option<Iv> {
    let n = its.len();
    let mut found = None;
    let mut bound = i32::MAX;
    let mut i = 1;
    loop {
        loop {
            if its[i - 1].end() >= bound {
                return found;
            }
            if i == n || its[i].start() > its[i - 1].end() {
                break;
            }
            loop {
                if its[i].end() >= bound || its[i].next() == NO_MORE {
                    return found;
                }
                if its[i].start() > its[i - 1].end() {
                    break;
                }
            }
            i += 1;
        }
        let start = its[0].start();
        if start == NO_MORE {
            return None;
        }
        let mut gaps = its[1].start() - its[0].end() - 1;
        for k in 2..n {
            gaps += its[k].start() - its[k - 1].end() - 1;
        }
        found = Some(Iv { start, end: its[n - 1].end(), gaps });
        bound = its[n - 1].start();
        i = 1;
        if its[0].next() == NO_MORE {
            return found;
        }
    }
}

/// Every source somewhere, in any order, overlaps allowed (Lucene's `unordered`): the sources'
/// current intervals form a window from the least start to the greatest end, and the source
/// that starts first moves on while the window keeps its end.
pub fn unordered(sources: &[Vec<Iv>]) -> Vec<Iv> {
    if sources.len() == 1 {
        return sources[0].clone();
    }
    let mut its: Vec<Cursor> = sources.iter().map(|s| Cursor::new(s)).collect();
    let mut queue: Vec<usize> = Vec::with_capacity(its.len());
    let mut queue_end = -1;
    for (k, it) in its.iter_mut().enumerate() {
        if it.next() == NO_MORE {
            break;
        }
        queue.push(k);
        queue_end = queue_end.max(it.end());
    }
    let mut out = Vec::new();
    let mut start = -1;
    while let Some(iv) = unordered_next(&mut its, &mut queue, &mut queue_end, start) {
        start = iv.start;
        out.push(iv);
    }
    out
}

/// The queue's head: least start, and of equal starts the greatest end (Lucene's order).
fn top(its: &[Cursor], queue: &[usize]) -> usize {
    let mut best = 0;
    for (pos, &k) in queue.iter().enumerate().skip(1) {
        let (a, b) = (&its[k], &its[queue[best]]);
        if a.start() < b.start() || (a.start() == b.start() && a.end() > b.end()) {
            best = pos;
        }
    }
    best
}

/// Moves the queue's head on; an exhausted source leaves the queue.
fn advance_top(its: &mut [Cursor], queue: &mut Vec<usize>, queue_end: &mut i32) {
    let k = queue.remove(top(its, queue));
    if its[k].next() != NO_MORE {
        *queue_end = (*queue_end).max(its[k].end());
        queue.push(k);
    }
}

fn unordered_next(its: &mut [Cursor], queue: &mut Vec<usize>, queue_end: &mut i32, last_start: i32) -> Option<Iv> {
    let n = its.len();
    while queue.len() == n && its[queue[top(its, queue)]].start() == last_start {
        advance_top(its, queue, queue_end);
    }
    if queue.len() < n {
        return None;
    }
    loop {
        let head = queue[top(its, queue)];
        let (start, end) = (its[head].start(), *queue_end);
        let gaps = end - start + 1 - its.iter().map(Cursor::width).sum::<i32>();
        let found = Iv { start, end, gaps };
        if its[head].end() == end {
            return Some(found);
        }
        advance_top(its, queue, queue_end);
        if queue.len() != n || end != *queue_end {
            return Some(found);
        }
    }
}

/// The sources one right after another, no gap (Lucene's `phrase`, a block).
pub fn phrase(sources: &[Vec<Iv>]) -> Vec<Iv> {
    if sources.len() == 1 {
        return sources[0].clone();
    }
    let n = sources.len();
    let mut its: Vec<Cursor> = sources.iter().map(|s| Cursor::new(s)).collect();
    let mut out = Vec::new();
    'next: loop {
        if its[0].next() == NO_MORE {
            break;
        }
        let mut i = 1;
        while i < n {
            while its[i].start() <= its[i - 1].end() {
                if its[i].next() == NO_MORE {
                    break 'next;
                }
            }
            if its[i].start() == its[i - 1].end() + 1 {
                i += 1;
            } else {
                if its[0].next() == NO_MORE {
                    break 'next;
                }
                i = 1;
            }
        }
        out.push(Iv { start: its[0].start(), end: its[n - 1].end(), gaps: 0 });
    }
    out
}

/// Any source's intervals, by start then end (Lucene's `or`).
pub fn or(sources: &[Vec<Iv>]) -> Vec<Iv> {
    let mut out: Vec<Iv> = sources.iter().flatten().copied().collect();
    out.sort_by_key(|iv| (iv.start, iv.end));
    out
}

/// `times` intervals of one source in a row: what a source repeated in an `unordered` stands
/// for, so that two copies never match the same position (Lucene's repeating source).
pub fn repeat(source: &[Iv], times: usize) -> Vec<Iv> {
    if times <= 1 {
        return source.to_vec();
    }
    source
        .windows(times)
        .map(|w| {
            let gaps =
                w.windows(2).map(|p| p[1].start - p[0].end - 1).sum::<i32>() + w.iter().map(|iv| iv.gaps).sum::<i32>();
            Iv { start: w[0].start, end: w[times - 1].end, gaps }
        })
        .collect()
}

/// The intervals with at most `max` gaps.
pub fn max_gaps(source: Vec<Iv>, max: u32) -> Vec<Iv> {
    source.into_iter().filter(|iv| iv.gaps <= max as i32).collect()
}

/// The source's intervals that stand in `relation` to the filter's.
pub fn filter(source: Vec<Iv>, relation: IntervalsRelation, filter: &[Iv]) -> Vec<Iv> {
    use IntervalsRelation as R;
    let any = |x: &Iv, test: &dyn Fn(&Iv, &Iv) -> bool| filter.iter().any(|f| test(x, f));
    let contains = |x: &Iv, f: &Iv| x.start <= f.start && f.end <= x.end;
    let within = |x: &Iv, f: &Iv| f.start <= x.start && x.end <= f.end;
    let overlaps = |x: &Iv, f: &Iv| f.start <= x.end && x.start <= f.end;
    source
        .into_iter()
        .filter(|x| match relation {
            R::Containing => any(x, &contains),
            R::NotContaining => !any(x, &contains),
            R::ContainedBy => any(x, &within),
            R::NotContainedBy => !any(x, &within),
            R::Overlapping => any(x, &overlaps),
            R::NotOverlapping => !any(x, &overlaps),
            R::Before => any(x, &|x: &Iv, f: &Iv| x.end < f.start),
            R::After => any(x, &|x: &Iv, f: &Iv| f.end < x.start),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ps: &[i32]) -> Vec<Iv> {
        ps.iter().map(|p| Iv::at(*p)).collect()
    }

    fn spans(ivs: &[Iv]) -> Vec<(i32, i32)> {
        ivs.iter().map(|iv| (iv.start, iv.end)).collect()
    }

    #[test]
    fn ordered_finds_the_minimal_intervals() {
        // a b a b: [0,1], [2,3] (not [0,3]).
        let got = ordered(&[at(&[0, 2]), at(&[1, 3])]);
        assert_eq!(spans(&got), vec![(0, 1), (2, 3)]);
        // a a b: only the tighter [1,2].
        assert_eq!(spans(&ordered(&[at(&[0, 1]), at(&[2])])), vec![(1, 2)]);
        let gapped = ordered(&[at(&[0]), at(&[3])]);
        assert_eq!(gapped[0].gaps, 2);
        assert!(ordered(&[at(&[3]), at(&[1])]).is_empty());
    }

    #[test]
    fn unordered_takes_either_order() {
        let got = unordered(&[at(&[3]), at(&[0])]);
        assert_eq!(spans(&got), vec![(0, 3)]);
        assert_eq!(got[0].gaps, 2);
        // outside(0) it(1) is(2) cold(3): cold/outside window [0,3].
        assert_eq!(spans(&unordered(&[at(&[3]), at(&[0, 5])])), vec![(0, 3), (3, 5)]);
    }

    #[test]
    fn phrase_needs_adjacent_positions() {
        assert_eq!(spans(&phrase(&[at(&[1, 4]), at(&[2, 7])])), vec![(1, 2)]);
        assert!(phrase(&[at(&[1]), at(&[3])]).is_empty());
    }

    #[test]
    fn filters_relate_intervals() {
        let source = vec![Iv { start: 2, end: 4, gaps: 1 }];
        assert_eq!(filter(source.clone(), IntervalsRelation::Containing, &at(&[3])).len(), 1);
        assert_eq!(filter(source.clone(), IntervalsRelation::NotContaining, &at(&[3])).len(), 0);
        assert_eq!(filter(source.clone(), IntervalsRelation::Before, &at(&[5])).len(), 1);
        assert_eq!(filter(source.clone(), IntervalsRelation::After, &at(&[5])).len(), 0);
        assert_eq!(filter(source.clone(), IntervalsRelation::Overlapping, &at(&[4])).len(), 1);
        assert_eq!(filter(source, IntervalsRelation::NotContainedBy, &[]).len(), 1);
        assert_eq!(max_gaps(vec![Iv { start: 0, end: 3, gaps: 2 }], 1).len(), 0);
    }

    #[test]
    fn repeats_need_distinct_positions() {
        assert!(repeat(&at(&[2]), 2).is_empty());
        assert_eq!(spans(&repeat(&at(&[2, 6]), 2)), vec![(2, 6)]);
    }
}
