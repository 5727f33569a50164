import Testing

@testable import PlacesExpenses

@Test func aTransferReadsFromPayerToPayee() {
    #expect(Transfer(from: "bruno", to: "ana", amountMinor: 4120).description == "bruno → ana: 4120")
}
