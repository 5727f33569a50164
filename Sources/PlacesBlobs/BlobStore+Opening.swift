import PlacesCrypto

/// Building the index from the directory when the store opens.
extension BlobStore {
    /// Lists the stored blobs (sizes from the file lengths) and removes temporary files a
    /// crash left behind.
    static func indexStored(_ paths: BlobPaths, into index: inout BlobIndex) throws(BlobError) {
        for directory in try FileSystem.list(paths.root) where BlobPaths.isFanOut(directory) {
            let directoryPath = paths.root + "/" + directory
            for name in try FileSystem.list(directoryPath) {
                let path = directoryPath + "/" + name
                if name.contains(BlobPaths.tempMarker) {
                    try FileSystem.remove(path)
                    continue
                }
                guard let id = BlobPaths.id(fromFileName: name, suffix: BlobPaths.storedSuffix),
                    id.hex.hasPrefix(directory), let sealed = FileSystem.fileSize(path)
                else { continue }
                // A file cut mid-frame still counts (at its best-guess size) so that the
                // quota stays honest and `collect` can remove it; reading it says `.corrupt`.
                let length =
                    FrameLayout.plaintextLength(sealed: sealed)
                    ?? max(0, sealed - (sealed / Int64(BlobCipher.sealedBytes) + 1) * Int64(BlobCipher.overheadBytes))
                index.stored[id] = length
                index.usedBytes += length
            }
        }
        for name in try FileSystem.list(paths.root) where name.hasPrefix(".key" + BlobPaths.tempMarker) {
            try FileSystem.remove(paths.root + "/" + name)
        }
    }

    /// Lists the downloads in progress, cutting each back to its last intact frame (a crash
    /// may have torn the frame being written). Their hashes are recomputed lazily, by the
    /// next chunk that arrives.
    static func indexPartials(_ paths: BlobPaths, secret: [UInt8], into index: inout BlobIndex) throws(BlobError) {
        for name in try FileSystem.list(paths.partialDirectory) {
            let path = paths.partialDirectory + "/" + name
            guard let id = BlobPaths.id(fromFileName: name, suffix: BlobPaths.partialSuffix) else {
                if name.contains(BlobPaths.tempMarker) { try FileSystem.remove(path) }
                continue
            }
            let length = try recoverPartial(id, path: path, cipher: BlobCipher(secret: secret, id: id))
            index.partials[id] = BlobIndex.Partial(length: length, hasher: nil)
            index.usedBytes += length
        }
    }

    /// Truncates a partial file to the frames whose last one authenticates, and returns the
    /// plaintext length kept.
    private static func recoverPartial(_ id: BlobID, path: String, cipher: BlobCipher) throws(BlobError) -> Int64 {
        let file = try BlobFile.openForUpdate(path)
        let size = try file.size()
        let sealedFrame = Int64(BlobCipher.sealedBytes)
        guard size > 0 else { return 0 }
        let tailStart = (size - 1) / sealedFrame * sealedFrame
        let tailLength = size - tailStart
        var keep = tailStart
        if tailLength > Int64(BlobCipher.overheadBytes),
            let sealed = try? file.read(at: tailStart, count: Int(tailLength)),
            (try? cipher.open(sealed, index: tailStart / sealedFrame, last: false)) != nil
        {
            keep = size
        }
        if keep != size { try file.truncate(to: keep) }
        guard let length = FrameLayout.partialPlaintextLength(sealed: keep) else {
            // Unreachable: `keep` is whole frames plus an authenticated tail.
            try file.truncate(to: 0)
            return 0
        }
        return length
    }
}
