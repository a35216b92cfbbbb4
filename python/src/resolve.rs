//! Inheritance on the caller's own tree, as `ssklib.validate_document`
//! does it: a piece with `from` takes each inheritable field it lacks from
//! its (already resolved) base. Values are copied as they are, so integers
//! stay integers and floats keep their f64 values. Run only on a document
//! that has passed validation: every `from` names a lower, existing id.

use std::collections::HashMap;

use sskb::Value;

fn int(v: Option<&Value>) -> Option<i64> {
    match v {
        Some(Value::Int(i)) => Some(*i),
        _ => None,
    }
}

/// Fills in inherited fields, in place.
pub fn resolve(doc: &mut Value) {
    let Value::Mapping(root) = doc else { return };
    let Some((_, Value::Sequence(pieces))) = root.iter_mut().find(|(k, _)| k == "pieces") else {
        return;
    };
    let by_id: HashMap<i64, usize> = pieces
        .iter()
        .enumerate()
        .filter_map(|(i, p)| int(p.get("id")).map(|id| (id, i)))
        .collect();
    let mut order: Vec<(i64, usize)> = by_id.iter().map(|(id, i)| (*id, *i)).collect();
    order.sort_unstable();
    for (_, i) in order {
        let Some(base) = int(pieces[i].get("from")).and_then(|f| by_id.get(&f).copied()) else {
            continue;
        };
        let inherited: Vec<(String, Value)> = sskb::Piece::INHERITED_FIELDS
            .iter()
            .filter(|k| pieces[i].get(k).is_none())
            .filter_map(|k| pieces[base].get(k).map(|v| ((*k).to_owned(), v.clone())))
            .collect();
        if let Value::Mapping(m) = &mut pieces[i] {
            m.extend(inherited);
        }
    }
}
