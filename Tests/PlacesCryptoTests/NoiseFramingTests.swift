import PlacesCrypto
import Testing

@Suite("Noise framing")
struct NoiseFramingTests {
    @Test func framesCarryABigEndianLength() throws {
        #expect(try NoiseFraming.frame([0xAA]) == [0x00, 0x01, 0xAA])
        let big = try NoiseFraming.frame([UInt8](repeating: 1, count: 0x1234))
        #expect(Array(big.prefix(2)) == [0x12, 0x34])
        #expect(try NoiseFraming.frame([UInt8](repeating: 1, count: 65_535)).prefix(2) == [0xFF, 0xFF])
    }

    @Test func emptyAndOversizeFramesAreRefused() {
        expectNoiseError(.invalidInput) { try NoiseFraming.frame([]) }
        expectNoiseError(.invalidInput) { try NoiseFraming.frame([UInt8](repeating: 0, count: 65_536)) }
    }

    @Test func decoderReassemblesFramesFedOneByteAtATime() throws {
        let messages: [[UInt8]] = [[1], Array(repeating: 2, count: 300), Array(repeating: 3, count: 65_535)]
        let stream = try messages.flatMap { try NoiseFraming.frame($0) }
        var decoder = NoiseFrameDecoder()
        var decoded: [[UInt8]] = []
        for byte in stream {
            decoder.append([byte])
            while let frame = try decoder.nextFrame() { decoded.append(frame) }
        }
        #expect(decoded == messages)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func decoderYieldsSeveralFramesFromOneReadAndKeepsThePartialRest() throws {
        var decoder = NoiseFrameDecoder()
        decoder.append(try NoiseFraming.frame([1, 2]) + NoiseFraming.frame([3]) + [0x00, 0x05, 9, 9])
        #expect(try decoder.nextFrame() == [1, 2])
        #expect(try decoder.nextFrame() == [3])
        #expect(try decoder.nextFrame() == nil)
        #expect(decoder.bufferedByteCount == 4)
        decoder.append([9, 9, 9])
        #expect(try decoder.nextFrame() == [9, 9, 9, 9, 9])
        #expect(try decoder.nextFrame() == nil)
    }

    @Test func zeroLengthFrameIsAnErrorAndTheDecoderStaysFailed() throws {
        var decoder = NoiseFrameDecoder()
        decoder.append([0x00, 0x00] + (try NoiseFraming.frame([1])))
        expectNoiseError(.invalidInput) { try decoder.nextFrame() }
        expectNoiseError(.invalidInput) { try decoder.nextFrame() }
    }

    @Test func framedTransportRoundTrip() throws {
        let initiator = NoiseHandshake.initiator(
            staticKey: try NoiseStaticKey(ed25519SecretKey: noiseEd25519KeyPair().secretKey))
        let responder = NoiseHandshake.responder(
            staticKey: try NoiseStaticKey(ed25519SecretKey: noiseEd25519KeyPair().secretKey))
        var toResponder = NoiseFrameDecoder()
        var toInitiator = NoiseFrameDecoder()
        toResponder.append(try NoiseFraming.frame(try initiator.writeMessage()))
        _ = try responder.readMessage(try #require(try toResponder.nextFrame()))
        toInitiator.append(try NoiseFraming.frame(try responder.writeMessage()))
        _ = try initiator.readMessage(try #require(try toInitiator.nextFrame()))
        toResponder.append(try NoiseFraming.frame(try initiator.writeMessage()))
        _ = try responder.readMessage(try #require(try toResponder.nextFrame()))
        let (sender, receiver) = (try initiator.finish(), try responder.finish())
        toResponder.append(try NoiseFraming.frame(try sender.encrypt(Array("itinerary op".utf8))))
        #expect(try receiver.decrypt(try #require(try toResponder.nextFrame())) == Array("itinerary op".utf8))
    }
}
