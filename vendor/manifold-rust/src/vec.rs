// vec.rs — Basic vector/linear algebra types
// Corresponds to: cpp-reference/manifold/include/manifold/linalg.h
//                 cpp-reference/manifold/src/vec.h

// Placeholder — implementation begins in Phase 1
