//! Independent mesh work on all cores, with results in the order of the
//! items: the output never depends on which thread ran what.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::error::{Error, ErrorKind, Result};

/// Threads one meshing may use; 0: one per core.
static THREADS: AtomicUsize = AtomicUsize::new(0);

/// Sets how many threads one meshing uses, for the whole process: 0 (the
/// default) is one per core. A program that meshes several models at once
/// gives each fewer, so that they do not compete for the cores. The
/// meshes are the same bytes whatever the number.
pub fn set_threads(n: usize) {
    THREADS.store(n, Ordering::Relaxed);
}

/// How many threads one meshing uses ([`set_threads`]; 0 there is one per
/// core).
pub(crate) fn threads() -> usize {
    match THREADS.load(Ordering::Relaxed) {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// `f` over `items` on up to as many threads as [`set_threads`] allows,
/// results in the items' order; the first error (in that order) is
/// returned.
pub(crate) fn par_map<T: Send, R: Send>(items: Vec<T>, f: impl Fn(T) -> Result<R> + Sync) -> Result<Vec<R>> {
    let threads = threads().min(items.len());
    if threads <= 1 {
        return items.into_iter().map(f).collect();
    }
    let slots: Vec<Mutex<Option<T>>> = items.into_iter().map(|t| Mutex::new(Some(t))).collect();
    let results: Vec<Mutex<Option<Result<R>>>> = slots.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(slot) = slots.get(k) else { break };
                let item = slot.lock().map(|mut s| s.take()).unwrap_or(None);
                if let Some(item) = item {
                    let r = f(item);
                    if let Ok(mut out) = results[k].lock() {
                        *out = Some(r);
                    }
                }
            });
        }
    });
    results
        .into_iter()
        .map(|m| {
            m.into_inner()
                .ok()
                .flatten()
                .unwrap_or_else(|| Err(Error::new(ErrorKind::Mesh, "a mesh worker thread failed")))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_items_order_and_the_first_error_wins() {
        let squares = par_map((0..1000u64).collect(), |i| Ok(i * i)).unwrap();
        assert_eq!(squares, (0..1000u64).map(|i| i * i).collect::<Vec<_>>());
        let e = par_map((0..100u32).collect(), |i| {
            if i % 7 == 3 {
                Err(Error::new(ErrorKind::Mesh, format!("item {i}")))
            } else {
                Ok(i)
            }
        })
        .unwrap_err();
        assert_eq!(e.message(), "item 3");
        assert!(par_map(Vec::<u8>::new(), Ok).unwrap().is_empty());
    }
}
