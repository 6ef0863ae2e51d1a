/**
 * TLS names shared by doc 2 §5 (`--tls-min-version`, `--tls-cipher-suites`) and doc 3 §2.3
 * (`tlsMinVersion`, `tlsCipherSuites`). The documents name the versions; the cipher names are not
 * shown, so they are Go's crypto/tls names as Kubernetes 1.26 accepts them (built with Go 1.19:
 * `tls.CipherSuites()` are secure, `tls.InsecureCipherSuites()` are accepted with a warning).
 */

/** The TLS versions doc 2 §5 lists for `--tls-min-version`. */
export const TLS_VERSIONS = ["VersionTLS10", "VersionTLS11", "VersionTLS12", "VersionTLS13"] as const;

/** Go's secure cipher suites (TLS 1.3 ones included, though they are not configurable). */
export const SECURE_CIPHER_SUITES = [
  "TLS_AES_128_GCM_SHA256",
  "TLS_AES_256_GCM_SHA384",
  "TLS_CHACHA20_POLY1305_SHA256",
  "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA",
  "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
  "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA",
  "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
  "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305",
  "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
  "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
  "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
  "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA",
  "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
  "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305",
  "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
  "TLS_RSA_WITH_AES_128_CBC_SHA",
  "TLS_RSA_WITH_AES_128_GCM_SHA256",
  "TLS_RSA_WITH_AES_256_CBC_SHA",
  "TLS_RSA_WITH_AES_256_GCM_SHA384",
] as const;

/** Go's insecure cipher suites: accepted, with a warning. */
export const INSECURE_CIPHER_SUITES = [
  "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256",
  "TLS_ECDHE_ECDSA_WITH_RC4_128_SHA",
  "TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA",
  "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256",
  "TLS_ECDHE_RSA_WITH_RC4_128_SHA",
  "TLS_RSA_WITH_3DES_EDE_CBC_SHA",
  "TLS_RSA_WITH_AES_128_CBC_SHA256",
  "TLS_RSA_WITH_RC4_128_SHA",
] as const;

/** Every cipher suite name, secure first. */
export const KNOWN_CIPHER_SUITES: readonly string[] = [...SECURE_CIPHER_SUITES, ...INSECURE_CIPHER_SUITES];
