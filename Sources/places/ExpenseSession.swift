import ArgumentParser
import Foundation
import PlacesAPI
import PlacesControlClient
import PlacesModel

/// What the expense, traveller and rate commands share for one itinerary: its request
/// targets, the travellers (fetched once, when a name must be resolved) and requests whose
/// refusals name the field at fault.
final class ExpenseSession {
    let api: APIClient
    let itinerary: String
    private var names: TravellerNames?

    /// `itinerary` is what the user typed: an id, a name or a unique prefix of one.
    init(_ global: GlobalOptions, itinerary: String) throws {
        self.api = global.api
        self.itinerary = try global.names.itinerary(itinerary)
    }

    /// `/v1/itineraries/{itinerary}/<segments>`.
    func target(_ segments: String..., query: [(String, String?)] = []) -> String {
        var path = Target.v1("itineraries", itinerary)
        // Target.v1 percent-encodes; "/v1" (3 characters) and "/v1/" (4) are dropped.
        for segment in segments { path += Target.v1(segment).dropFirst(3) }
        guard !query.isEmpty else { return path }
        return path + Target.v1("", query: query).dropFirst(4)
    }

    /// The itinerary's travellers and `me`, fetched on first use.
    func travellerNames() throws -> TravellerNames {
        if let names { return names }
        let list = try request("GET", target("travellers")).decode(ExpenseAPI.TravellerList.self)
        let api = self.api
        let loaded = TravellerNames(list.travellers) { try? api.get(Target.v1("profile")).decode(Profile.self).id }
        names = loaded
        return loaded
    }

    /// The traveller `name` stands for; an unknown or ambiguous name exits 2 naming the candidates.
    func traveller(_ name: String) throws -> ExpenseAPI.Traveller {
        do {
            return try travellerNames().resolve(name)
        } catch let failure as TravellerNames.Failure {
            throw CLIExit.fail(failure.description, CLIExit.usage)
        }
    }

    /// The id the API takes for `name`.
    func travellerID(_ name: String) throws -> String { try traveller(name).id }

    /// Sends a request like ``APIClient/send(_:_:body:)``; a refusal naming a field prints
    /// it after the detail (`error: … (field: paidBy)`), so a script sees what to fix.
    func request(_ method: String, _ target: String, _ body: (any Encodable)? = nil) throws -> APIClient.Reply {
        var bytes: [UInt8]?
        if let body {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            do { bytes = Array(try encoder.encode(body)) } catch {
                throw CLIExit.fail("cannot encode the request: \(error)", CLIExit.usage)
            }
        }
        let response: ControlClient.Response
        do {
            response = try api.control.send(method, target, body: bytes, headers: [:])
        } catch {
            throw APIClient.exit(for: error)
        }
        guard (200..<300).contains(response.status) else {
            if let problem = try? JSONDecoder().decode(Problem.self, from: Data(response.body)),
                let field = problem.field, !field.isEmpty
            {
                throw CLIExit.fail("\(problem.detail) (field: \(field))", CLIExit.refused)
            }
            throw APIClient.exit(status: response.status, body: response.body)
        }
        return APIClient.Reply(response: response)
    }
}
