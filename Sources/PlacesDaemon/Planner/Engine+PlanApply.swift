import PlacesAPI
import PlacesControl
import PlacesModel
import PlacesPlanner
import PlacesRoutes
import PlacesTrips

/// `POST /v1/plans`: the inputs read on the engine, the plan made off it (the solver may run
/// for `timeBudgetMs`, and the engine serves everyone else meanwhile), then written when asked
/// (`create`: a new itinerary; `apply`: into `itinerary`). `docs/planner.md` §5.
enum PlanRoutes {
    static func plan(_ engine: Engine, _ body: [String: JSONValue]) async throws -> ControlResponse {
        var context = try await engine.planInputs(body)
        context.plan = TripPlanner.plan(context.request)
        var answer = Engine.planJSON(context)
        let create = body["create"]?.stringValue
        if create != nil || body["apply"] == .bool(true) {
            let id = try await engine.writePlan(context, create: create)
            answer = answer.setting("itinerary", .string(id))
        }
        return .encoding(answer)
    }
}

extension Engine {
    /// `YYYY-MM-DDTHH:MM` of `minute` on `date` (a minute past midnight rolls over).
    static func localTime(_ date: String, _ minute: Int) -> String {
        let day = LocalDate(date) ?? LocalDate(dayNumber: 0)
        let m = max(0, minute)
        let (extra, rest) = m.quotientAndRemainder(dividingBy: 1_440)
        let clock = String(format: "%02d:%02d", rest / 60, rest % 60)
        return "\(day.adding(days: extra))T\(clock)"
    }

    static func money(_ minor: Int64, _ currency: String) -> JSONValue {
        .object(["amountMinor": .int(minor), "currency": .string(currency)])
    }

    static func planJSON(_ context: PlanContext) -> JSONValue {
        let request = context.request
        let plan = context.plan
        let days: [JSONValue] = plan.days.map { day in
            let stops: [JSONValue] = day.stops.map { stop in
                let c = request.candidates[stop.candidate]
                var o: [String: JSONValue] = [
                    "placeId": .string(c.id), "name": .string(c.name),
                    "arrive": .string(localTime(day.date, stop.arrive)),
                    "leave": .string(localTime(day.date, stop.leave)),
                    "travelMinutesBefore": .int(Int64(stop.travelMinutesBefore)),
                    "reasons": .array(stop.reasons.map(JSONValue.string)),
                    "categories": .array(c.categories.map(JSONValue.string)),
                ]
                if let point = c.point {
                    o["latitude"] = .number(point.latitude)
                    o["longitude"] = .number(point.longitude)
                }
                if c.fixed != nil { o["fixed"] = .bool(true) }
                if c.fixed == nil, c.cost.minor > 0 { o["cost"] = money(c.cost.minor, context.currency) }
                return .object(o)
            }
            return .object([
                "date": .string(day.date), "stops": .array(stops), "travelMinutes": .int(Int64(day.travelMinutes)),
                "distanceKm": .number((day.distanceMeters / 100).rounded() / 10),
                "cost": money(day.cost, context.currency),
                "backAt": .string(localTime(day.date, day.stops.isEmpty ? request.dayStart : day.backAt)),
            ])
        }
        var leftOut: [JSONValue] = plan.leftOut.map { left in
            let c = request.candidates[left.candidate]
            return .object(["placeId": .string(c.id), "name": .string(c.name), "reason": .string(left.reason)])
        }
        if request.candidates.isEmpty {
            leftOut = []
        }
        var answer: [String: JSONValue] = [
            "days": .array(days), "score": .number((plan.score * 100).rounded() / 100),
            "cost": money(plan.cost, context.currency), "leftOut": .array(leftOut),
            "candidates": .int(Int64(request.candidates.count)), "mode": .string(request.mode.rawValue),
            "stay": .object(["latitude": .number(request.stay.latitude), "longitude": .number(request.stay.longitude)]),
        ]
        if let budget = request.budget { answer["budget"] = money(budget, context.currency) }
        if request.candidates.isEmpty {
            answer["note"] = .string("no saved place within the radius: widen radiusKm, or save places there first")
        }
        return .object(answer)
    }

    /// Writes the plan: a new itinerary (`create`) or the given one. Each visit becomes a
    /// timed item (food for a place to eat, else an activity) at the place, with why it was
    /// picked in its notes; places to go already in the itinerary get their day. Booked items
    /// are left as they are. Returns the itinerary's id.
    func writePlan(_ context: PlanContext, create name: String?) throws -> String {
        let request = context.request
        var id: String
        if let name {
            var body: [String: JSONValue] = [
                "name": .string(name), "startDate": .string(context.days.first?.description ?? ""),
                "endDate": .string(context.days.last?.description ?? ""),
                "travelMode": .string(request.mode.rawValue),
            ]
            if let zone = context.itinerary.flatMap({ try? tripSnapshot($0).trip.timeZone }) {
                body["timeZone"] = .string(zone)
            }
            id = try createItinerary(body).id
        } else if let doc = context.itinerary {
            id = doc.id.hex
        } else {
            throw ServiceError.invalid("apply", "'apply' writes the plan into 'itinerary': name the itinerary")
        }
        for day in context.plan.days {
            for stop in day.stops {
                let c = request.candidates[stop.candidate]
                guard c.fixed == nil else { continue }
                if name == nil, let stopID = context.existingStops[c.id] {
                    _ = try moveStop(id, stop: stopID, ["date": .string(day.date)])
                    continue
                }
                var item: [String: JSONValue] = [
                    "type": .string(PlanScoring.isFood(c.categories) ? "food" : "activity"),
                    "title": .string(String(c.name.prefix(200))),
                    "start": .string(Self.localTime(day.date, stop.arrive)),
                    "end": .string(Self.localTime(day.date, stop.leave)),
                    "notes": .string("Suggested: " + stop.reasons.joined(separator: "; ")),
                ]
                if let point = c.point {
                    item["location"] = .object([
                        "name": .string(String(c.name.prefix(200))), "latitude": .number(point.latitude),
                        "longitude": .number(point.longitude),
                    ])
                }
                if c.cost.minor > 0, case .price = c.cost { item["price"] = Self.money(c.cost.minor, context.currency) }
                _ = try createItem(id, item)
            }
        }
        return id
    }
}

extension JSONValue {
    /// This object with `key` set (unchanged when not an object).
    func setting(_ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var o) = self else { return self }
        o[key] = value
        return .object(o)
    }
}
