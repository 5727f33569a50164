/// A feature's state held by the engine (docs/devices-design.md §1): a value it stores as
/// one property and mutates only through the component's methods. The engine tells every
/// component of store writes and identity changes from one place (`Engine.didStore`,
/// `Engine.didChangeIdentity`); what a component invalidates then is its own decision.
protocol EngineComponent {
    /// The store was written (`StoreChange`).
    mutating func didStore(_ change: StoreChange)
    /// An identity was created, unlocked or locked: what was kept for the previous one goes.
    mutating func didChangeIdentity()
}

extension EngineComponent {
    mutating func didStore(_ change: StoreChange) {}
    mutating func didChangeIdentity() {}
}
