import NIOCore
import NIOEmbedded
import PlacesSync
import SwiftProtobuf

@testable import PlacesSync

/// `frames`: a TCP byte stream through the transport's `SyncFrameDecoder` in a NIO
/// pipeline, arriving in chunks, then each frame after the handshake through
/// `SyncMessageAssembler` and `SyncMessage` decoding as the session code does. Frames are
/// treated as already-decrypted fragments: with real Noise encryption every mutated frame
/// would stop at the AEAD tag.
///
/// Input: byte 0 picks the handshake frames still expected (0: none, 1: an initiator's
/// [192], 2: a responder's [32, 160]); byte 1 is the chunk size the stream arrives in
/// (0 means all at once); the rest is the stream.
///
/// Checked: the frames decoded are exactly the stream's `length ‖ body` records, in order,
/// each 1...65,535 bytes; every reassembled message splits and reassembles to itself.
enum FuzzFrames {
    /// Small, so that inputs reach the size limit.
    static let maxMessageBytes = 2048

    static func run(_ input: [UInt8]) {
        var reader = FuzzReader(input)
        let mode = Int(reader.byte() ?? 0) % 3
        let chunk = Int(reader.byte() ?? 0)
        let stream = reader.rest()
        let lengths = mode == 0 ? [] : SyncFrameDecoder.handshakeFrameLengths(initiator: mode == 1)

        let channel = EmbeddedChannel(
            handler: ByteToMessageHandler(SyncFrameDecoder(handshakeFrameLengths: lengths)))
        var frames: [[UInt8]] = []
        var failed = false
        var start = 0
        while start < stream.count, !failed {
            let end = chunk == 0 ? stream.count : min(stream.count, start + chunk)
            do {
                try channel.writeInbound(ByteBuffer(bytes: stream[start..<end]))
            } catch {
                failed = true
            }
            while let frame = try? channel.readInbound(as: [UInt8].self) { frames.append(frame) }
            start = end
        }
        _ = try? channel.finish()
        while let frame = try? channel.readInbound(as: [UInt8].self) { frames.append(frame) }

        // The frames are the stream's records, in order.
        var offset = 0
        for frame in frames {
            precondition((1...0xFFFF).contains(frame.count), "a decoded frame of \(frame.count) bytes")
            precondition(offset + 2 + frame.count <= stream.count, "a frame beyond the stream")
            let length = Int(stream[offset]) << 8 | Int(stream[offset + 1])
            precondition(length == frame.count, "a frame whose length is not its header's")
            precondition(stream[(offset + 2)..<(offset + 2 + length)].elementsEqual(frame), "a frame not in the stream")
            offset += 2 + length
        }
        for (index, expected) in lengths.enumerated() where index < frames.count {
            precondition(frames[index].count == expected, "a handshake frame of the wrong length got through")
        }

        var assembler = SyncMessageAssembler(maxMessageBytes: maxMessageBytes)
        for fragment in frames.dropFirst(lengths.count) {
            let message: [UInt8]?
            do {
                message = try assembler.append(fragment)
            } catch {
                return  // The session would close here.
            }
            guard let message else { continue }
            precondition(message.count <= maxMessageBytes, "a message over the limit was reassembled")
            checkSplit(message)
            guard let decoded = try? Places_Sync_V1_SyncMessage(serializedBytes: message), decoded.kind != nil else {
                return
            }
            // What the session would send back must serialize.
            _ = try? decoded.serializedBytes() as [UInt8]
        }
    }

    /// `SyncFragments.split` then reassembly gives the message back.
    static func checkSplit(_ message: [UInt8]) {
        var assembler = SyncMessageAssembler(maxMessageBytes: message.count)
        let fragments = SyncFragments.split(message)
        for (index, fragment) in fragments.enumerated() {
            let out = try? assembler.append(fragment)
            if index == fragments.count - 1 {
                precondition(out == message, "split and reassembly changed a message")
            } else {
                precondition(out == nil, "a message ended before its last fragment")
            }
        }
    }
}
