/// A certificate authority and a server certificate of the tests' own, for the weather
/// client's https tests: a server on loopback that presents the server certificate is
/// refused by a client with the system's trust roots and accepted by one that trusts
/// `authorityPEM`.
///
/// Made once with openssl (P-256, valid until 2126): the authority `CN=Places test weather
/// CA`, and a server certificate for `DNS:localhost` only (no IP name, so that
/// `https://127.0.0.1` is refused for its name). The private key is a test key; it protects
/// nothing.
public enum TestTLS {
    /// The authority's certificate, PEM.
    public static let authorityPEM = """
        -----BEGIN CERTIFICATE-----
        MIIBqTCCAU+gAwIBAgIUXmUjcqREWYOhzOau+s/1NKxN43UwCgYIKoZIzj0EAwIw
        ITEfMB0GA1UEAwwWUGxhY2VzIHRlc3Qgd2VhdGhlciBDQTAgFw0yNjExMjkxMTQ0
        MzJaGA8yMTI2MTEwNTExNDQzMlowITEfMB0GA1UEAwwWUGxhY2VzIHRlc3Qgd2Vh
        dGhlciBDQTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABEeD3EM7T6m4KZDVN9kP
        sR9zxvp0AUMzSSYb9Ym7+Qycy11bXU4ZstiL9gPGGSPs5rk0aMgptJTO+iGkge9i
        rC+jYzBhMB0GA1UdDgQWBBRQBes7o6eBRx+HqKq7kcHuMrn/ATAfBgNVHSMEGDAW
        gBRQBes7o6eBRx+HqKq7kcHuMrn/ATAPBgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB
        /wQEAwIBBjAKBggqhkjOPQQDAgNIADBFAiEAtX1+LIzAqN8oZadBFLTfEv+oSixT
        tAGuJN87/peUi68CIG+bYD/8Q2xMA0hno7B8TE39ASqGC3/rRk40jqvWceRF
        -----END CERTIFICATE-----
        """

    /// The server certificate (`localhost`), PEM, issued by the authority.
    public static let serverCertificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIBxzCCAWygAwIBAgIUZSHZvPb3qiZXVvw0U2DRA/zLa+wwCgYIKoZIzj0EAwIw
        ITEfMB0GA1UEAwwWUGxhY2VzIHRlc3Qgd2VhdGhlciBDQTAgFw0yNjExMjkxMTQ0
        MzNaGA8yMTI2MTEwNTExNDQzM1owFDESMBAGA1UEAwwJbG9jYWxob3N0MFkwEwYH
        KoZIzj0CAQYIKoZIzj0DAQcDQgAEGLPIcRiyY+H4AaIgDWBs+zT0jOoOGF9WjUie
        s7yDhN9Q6eaAJfPRpqMQtebaBjK7OJiPoTDeH7eU9oulcXnUXKOBjDCBiTAUBgNV
        HREEDTALgglsb2NhbGhvc3QwDAYDVR0TAQH/BAIwADAOBgNVHQ8BAf8EBAMCB4Aw
        EwYDVR0lBAwwCgYIKwYBBQUHAwEwHQYDVR0OBBYEFIsVgAHqIBuNF7z4QLwFFexW
        YcVxMB8GA1UdIwQYMBaAFFAF6zujp4FHH4eoqruRwe4yuf8BMAoGCCqGSM49BAMC
        A0kAMEYCIQDE+NTmHHQ31UUt9PoHjvfsCSqsaZp5xIw7paUr7CcQdgIhAJMs1aMu
        QPF2xXHbz5zsfhEfP9UgNJUQpXwWsvMLZzEv
        -----END CERTIFICATE-----
        """

    /// The server certificate's private key, PEM (PKCS #8).
    public static let serverKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQglp2xNIFFZeDUdcMr
        2vVduB5vApvdTdnWiXaJeNjprfWhRANCAAQYs8hxGLJj4fgBoiANYGz7NPSM6g4Y
        X1aNSJ6zvIOE31Dp5oAl89GmoxC15toGMrs4mI+hMN4ft5T2i6VxedRc
        -----END PRIVATE KEY-----
        """
}
