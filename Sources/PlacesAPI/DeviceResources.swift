// Resources of a person's devices (issue 29, `Protocol/devices.md`): pairing a new device,
// listing and revoking devices. The names of the contract are kept exactly; the rest
// is in `Protocol/control-api.yaml`.

/// `POST /v1/devices/pairings` body (optional): whether the new device may manage devices.
public struct PairingRequest: Codable, Sendable {
    public var admin: Bool?

    public init(admin: Bool? = nil) { self.admin = admin }
}

/// `POST /v1/devices/pairings` answer (201): the one-time code to type on the new device.
public struct PairingCreated: Codable, Sendable, Equatable {
    public var id: String
    public var code: String
    /// RFC 3339: ten minutes after it was made.
    public var expiresAt: String
    /// The code as a terminal QR code (lines of `█` and spaces), for a phone's camera.
    public var qr: String?

    public init(id: String, code: String, expiresAt: String, qr: String?) {
        self.id = id
        self.code = code
        self.expiresAt = expiresAt
        self.qr = qr
    }
}

/// A pairing, as `GET /v1/devices/pairings` lists it.
public struct PairingInfo: Codable, Sendable, Equatable {
    public var id: String
    /// `waiting`, `confirm` (a device has joined: compare `checkCode`), `done`, `expired`,
    /// `cancelled`.
    public var state: String
    public var deviceName: String?
    public var checkCode: String?
    public var expiresAt: String
    /// Whether the device will be allowed to manage devices.
    public var admin: Bool

    public init(
        id: String, state: String, deviceName: String?, checkCode: String?, expiresAt: String, admin: Bool
    ) {
        self.id = id
        self.state = state
        self.deviceName = deviceName
        self.checkCode = checkCode
        self.expiresAt = expiresAt
        self.admin = admin
    }
}

/// `GET /v1/devices/pairings`.
public struct PairingList: Codable, Sendable, Equatable {
    public var pairings: [PairingInfo]

    public init(pairings: [PairingInfo]) { self.pairings = pairings }
}

/// `POST /v1/devices/pairings/{id}/confirm` body.
public struct PairingConfirmation: Codable, Sendable {
    /// The 6 digits the new device shows.
    public var checkCode: String
    /// Overrides the pairing's `admin` choice when given.
    public var admin: Bool?

    public init(checkCode: String, admin: Bool? = nil) {
        self.checkCode = checkCode
        self.admin = admin
    }
}

/// `POST /v1/devices/join` body, on a daemon with no identity yet.
public struct DeviceJoinRequest: Codable, Sendable {
    public var code: String
    /// The device's name ("Ana's phone"), at most 64 characters.
    public var name: String
    /// Seals this device's key file (and the person's key, on an admin device).
    public var passphrase: String?
    /// A headless device: its key file is not sealed.
    public var noPassphrase: Bool?
    /// How long to look for the issuing device, 1–120 s (default 30).
    public var waitSeconds: Int?

    public init(
        code: String, name: String, passphrase: String? = nil, noPassphrase: Bool? = nil, waitSeconds: Int? = nil
    ) {
        self.code = code
        self.name = name
        self.passphrase = passphrase
        self.noPassphrase = noPassphrase
        self.waitSeconds = waitSeconds
    }
}

/// `POST /v1/devices/join` answer (202): the check code to compare with the issuing device.
public struct DeviceJoinAccepted: Codable, Sendable, Equatable {
    public var checkCode: String

    public init(checkCode: String) { self.checkCode = checkCode }
}

/// `GET /v1/status`' `device`: this daemon as a device of its person.
public struct DeviceStatus: Codable, Sendable, Equatable {
    /// `pairing` (joining, waiting for confirmation), `paired` (a device of its person),
    /// `refused` (the last join was refused: `reason`).
    public var state: String
    /// This device's id (its key, human form) and name.
    public var id: String?
    public var name: String?
    public var checkCode: String?
    public var reason: String?

    public init(state: String, id: String?, name: String?, checkCode: String? = nil, reason: String? = nil) {
        self.state = state
        self.id = id
        self.name = name
        self.checkCode = checkCode
        self.reason = reason
    }
}

/// A device of this person, as `GET /v1/devices` lists it.
public struct DeviceInfo: Codable, Sendable, Equatable {
    /// The device key, human form (the person's own id for the first device).
    public var id: String
    public var name: String
    /// Whether it is the device answering.
    public var current: Bool
    /// Whether it may pair and revoke devices.
    public var admin: Bool
    public var addedAt: String?
    /// When this daemon last had a session with it (now for the current device).
    public var lastSeen: String?
    public var revokedAt: String?

    public init(
        id: String, name: String, current: Bool, admin: Bool, addedAt: String?, lastSeen: String?, revokedAt: String?
    ) {
        self.id = id
        self.name = name
        self.current = current
        self.admin = admin
        self.addedAt = addedAt
        self.lastSeen = lastSeen
        self.revokedAt = revokedAt
    }
}

/// `GET /v1/devices`.
public struct DeviceList: Codable, Sendable, Equatable {
    public var devices: [DeviceInfo]
    /// Set when only one device may manage devices: losing it loses that power.
    public var warning: String?

    public init(devices: [DeviceInfo], warning: String?) {
        self.devices = devices
        self.warning = warning
    }
}
