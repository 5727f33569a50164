extension TripPlanner {
    /// How many places left out the answer lists, best first.
    public static let maxLeftOut = 25

    /// The good places the plan does not visit, best score first, with why: closed on the
    /// trip's days, too far for the mode, over the budget, or no time left for them.
    static func leftOut(
        _ request: TripPlanRequest, scored: [(score: Double, reasons: [String])], planned: Set<Int>,
        excluded: [Int: Exclusion], spent: Int64
    ) -> [TripPlan.LeftOut] {
        let remaining = request.budget.map { $0 - spent }
        let order = request.candidates.indices.filter { !planned.contains($0) }.sorted {
            scored[$0].score != scored[$1].score
                ? scored[$0].score > scored[$1].score
                : request.candidates[$0].id < request.candidates[$1].id
        }
        return order.prefix(maxLeftOut).map { i in
            let c = request.candidates[i]
            var reason: String
            switch excluded[i] {
            case .closed(let why): reason = why
            case .tooFar: reason = "too far for \(request.mode.rawValue) from your stay"
            case .unpriced(let why): reason = why
            case .overBudget: reason = "over budget"
            case .noLocation: reason = "has no location"
            case nil:
                if let remaining, c.cost.minor > remaining {
                    reason = "over budget"
                } else if c.fixed != nil {
                    reason = "its time does not fit your day"
                } else {
                    reason = "no time left: the stops planned score higher"
                }
            }
            if c.must, c.fixed == nil { reason = "could not fit: " + reason }
            return TripPlan.LeftOut(candidate: i, reason: reason)
        }
    }
}
