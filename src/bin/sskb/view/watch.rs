//! Changes on disk: the directory that holds the model (or the served
//! directory, recursively) is watched rather than the file itself, so an
//! editor that saves by writing a new file and renaming it over the old
//! one is seen as a change of that name.

use notify::{RecursiveMode, Watcher};

use super::safety::Root;
use super::state::App;
use crate::batch::MODEL_EXTENSIONS;

/// Watches the root for as long as the returned watcher lives, telling
/// `app` of every model file that changes.
///
/// # Errors
/// When the system refuses the watch (too many watches, say).
pub fn start(app: App) -> notify::Result<notify::RecommendedWatcher> {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let root = app.root.clone();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else { return };
        if event.kind.is_access() {
            return;
        }
        for path in &event.paths {
            let model = path
                .extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| MODEL_EXTENSIONS.contains(&x));
            if let Some(rel) = root.rel_of(path).filter(|_| model) {
                let _ = tx.send(rel);
            }
        }
    })?;
    let mode = match app.root {
        Root::File { .. } => RecursiveMode::NonRecursive,
        Root::Dir(_) => RecursiveMode::Recursive,
    };
    watcher.watch(app.root.dir(), mode)?;
    tokio::spawn(async move {
        while let Some(rel) = rx.recv().await {
            // One burst of events (write, close, rename) is one change.
            let mut changed = vec![rel];
            while let Ok(more) = rx.try_recv() {
                if !changed.contains(&more) {
                    changed.push(more);
                }
            }
            for rel in changed {
                app.changed(&rel);
            }
        }
    });
    Ok(watcher)
}
