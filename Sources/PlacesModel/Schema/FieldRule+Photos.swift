extension FieldRule {
    /// Most photos one post carries.
    public static let maxPhotosPerPost = 10
    /// Largest photo, in bytes (20 MiB).
    public static let maxPhotoBytes: Int64 = 20 * 1_024 * 1_024
    /// The media types a photo may have.
    public static let photoTypes: Set<String> = ["image/jpeg", "image/png", "image/webp", "image/heic"]

    /// `.photos`: a list of at most `maxPhotosPerPost` photo descriptors, each exactly the
    /// five fields with their bounds; returns it as stored.
    static func validatePhotos(_ field: String, _ value: JSONValue) throws(FieldError) -> JSONValue {
        guard case .array(let items) = value, items.count <= maxPhotosPerPost else {
            throw FieldError(field, "'\(field)' must be a list of at most \(maxPhotosPerPost) photos")
        }
        var seen = Set<String>()
        for item in items {
            guard case .object(let o) = item, o.count == 5, let id = o["id"]?.stringValue,
                FieldRule.isLowerHex(id, count: 64), let type = o["contentType"]?.stringValue,
                photoTypes.contains(type), let bytes = o["bytes"]?.intValue, (1...maxPhotoBytes).contains(bytes),
                let width = o["width"]?.intValue, (1...65_535).contains(width), let height = o["height"]?.intValue,
                (1...65_535).contains(height)
            else {
                throw FieldError(
                    field,
                    "each of '\(field)' must be {\"id\", \"contentType\", \"bytes\", \"width\", \"height\"} of a photo")
            }
            guard seen.insert(id).inserted else { throw FieldError(field, "'\(field)' names a photo twice") }
        }
        return value
    }
}
