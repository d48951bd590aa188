//! Who may do what: the operator's bearer token, the same-origin rule for
//! WebSockets, and the Host rule against DNS rebinding.

use axum::http::HeaderMap;
use axum::http::header::{AUTHORIZATION, HOST, ORIGIN};

/// True when the request carries `Authorization: Bearer <token>` with the right token.
pub fn authorized(headers: &HeaderMap, token: &str) -> bool {
    let Some(value) = headers.get(AUTHORIZATION).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let Some((scheme, given)) = value.trim().split_once(' ') else {
        return false;
    };
    scheme.eq_ignore_ascii_case("bearer") && token_matches(given.trim(), token)
}

/// True when `given` is the (non-empty) operator token.
pub fn token_matches(given: &str, token: &str) -> bool {
    !token.is_empty() && constant_time_eq(given, token)
}

/// The Host rule against DNS rebinding: a page of another site whose name was
/// made to resolve to this machine sends its own name as `Host`, so only
/// names that cannot be rebound are served: an IP address (`127.0.0.1:8040`,
/// `[::1]:8040`, the LAN address of a station with `allow_remote`), `localhost`
/// and `*.localhost`. No `Host` at all (HTTP/1.0 tools) is fine: browsers
/// always send one.
pub fn host_allowed(headers: &HeaderMap) -> bool {
    let Some(host) = headers.get(HOST) else {
        return true;
    };
    let Ok(host) = host.to_str() else {
        return false;
    };
    let host = host.trim().to_ascii_lowercase();
    let name = if let Some(rest) = host.strip_prefix('[') {
        // [v6]:port
        match rest.split_once(']') {
            Some((v6, port)) if port.is_empty() || port.starts_with(':') => {
                return v6.parse::<std::net::Ipv6Addr>().is_ok() && port_ok(port);
            }
            _ => return false,
        }
    } else {
        match host.rsplit_once(':') {
            Some((name, port)) => {
                if !port_ok(&format!(":{port}")) {
                    return false;
                }
                name.to_owned()
            }
            None => host.clone(),
        }
    };
    let name = name.strip_suffix('.').unwrap_or(&name);
    name.parse::<std::net::Ipv4Addr>().is_ok() || name == "localhost" || name.ends_with(".localhost")
}

/// An empty port or `:N` with N a port number.
fn port_ok(port: &str) -> bool {
    port.is_empty() || port.strip_prefix(':').is_some_and(|p| p.parse::<u16>().is_ok())
}

/// Compares without an early exit on the first differing byte (subtle's
/// constant-time equality; only the length may show).
fn constant_time_eq(a: &str, b: &str) -> bool {
    use subtle::ConstantTimeEq;
    bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// The WebSocket origin rule: no `Origin` (a non-browser client) is fine; a browser's
/// `Origin` must name the host (and port) the request was sent to.
pub fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(ORIGIN) else {
        return true;
    };
    let (Ok(origin), Some(host)) = (origin.to_str(), headers.get(HOST).and_then(|h| h.to_str().ok())) else {
        return false;
    };
    let (scheme, rest) = match origin.split_once("://") {
        Some((s, r)) if s.eq_ignore_ascii_case("http") || s.eq_ignore_ascii_case("https") => (s, r),
        _ => return false,
    };
    if rest.contains('/') || rest.is_empty() {
        return false;
    }
    normalise(rest, scheme) == normalise(host, "http") || normalise(rest, scheme) == normalise(host, "https")
}

/// `host[:port]` lower-cased with the scheme's default port spelled out.
fn normalise(authority: &str, scheme: &str) -> String {
    let authority = authority.trim().to_ascii_lowercase();
    let has_port = match authority.rfind(':') {
        Some(i) => !authority[i..].contains(']'),
        None => false,
    };
    if has_port {
        authority
    } else {
        let port = if scheme.eq_ignore_ascii_case("https") { 443 } else { 80 };
        format!("{authority}:{port}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(axum::http::HeaderName, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(k.clone(), HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn bearer_tokens_are_checked() {
        assert!(authorized(&headers(&[(AUTHORIZATION, "Bearer s3cret")]), "s3cret"));
        assert!(authorized(&headers(&[(AUTHORIZATION, "bearer s3cret")]), "s3cret"));
        assert!(!authorized(&headers(&[(AUTHORIZATION, "Bearer s3cre")]), "s3cret"));
        assert!(!authorized(&headers(&[(AUTHORIZATION, "Basic s3cret")]), "s3cret"));
        assert!(!authorized(&headers(&[]), "s3cret"));
        assert!(!authorized(&headers(&[(AUTHORIZATION, "Bearer ")]), ""));
        assert!(!authorized(&headers(&[(AUTHORIZATION, "Bearer s3creT")]), "s3cret"));
        assert!(!authorized(&headers(&[(AUTHORIZATION, "Bearer s3crets")]), "s3cret"));
    }

    #[test]
    fn constant_time_compare_is_plain_equality() {
        for (a, b) in [("", ""), ("a", "a"), ("a", "b"), ("ab", "a"), ("tok\u{e9}n", "tok\u{e9}n"), ("x", "")]
        {
            assert_eq!(constant_time_eq(a, b), a == b, "{a:?} {b:?}");
        }
    }

    #[test]
    fn only_hosts_that_cannot_be_rebound_are_served() {
        for ok in [
            "127.0.0.1:8040",
            "127.0.0.1",
            "localhost:8040",
            "LOCALHOST",
            "[::1]:8040",
            "[::1]",
            "192.168.1.20:8040",
            "station.localhost:80",
            "localhost.:8040",
        ] {
            assert!(host_allowed(&headers(&[(HOST, ok)])), "{ok}");
        }
        for bad in [
            "evil.example:8040",
            "evil.example",
            "127.0.0.1.evil.example:8040",
            "localhost.evil:8040",
            "[::1",
            "[evil]:80",
            "127.0.0.1:port",
            "1.2.3.4:99999",
            "",
        ] {
            assert!(!host_allowed(&headers(&[(HOST, bad)])), "{bad}");
        }
        assert!(host_allowed(&headers(&[])), "no Host (HTTP/1.0)");
    }

    #[test]
    fn origins_must_match_the_host() {
        assert!(same_origin(&headers(&[(HOST, "127.0.0.1:8080")])));
        assert!(same_origin(&headers(&[(HOST, "127.0.0.1:8080"), (ORIGIN, "http://127.0.0.1:8080")])));
        assert!(same_origin(&headers(&[(HOST, "localhost"), (ORIGIN, "http://localhost:80")])));
        assert!(same_origin(&headers(&[(HOST, "[::1]:9000"), (ORIGIN, "http://[::1]:9000")])));
        assert!(!same_origin(&headers(&[(HOST, "127.0.0.1:8080"), (ORIGIN, "http://evil.example:8080")])));
        assert!(!same_origin(&headers(&[(HOST, "127.0.0.1:8080"), (ORIGIN, "http://127.0.0.1:8081")])));
        assert!(!same_origin(&headers(&[(HOST, "127.0.0.1:8080"), (ORIGIN, "null")])));
        assert!(!same_origin(&headers(&[(ORIGIN, "http://127.0.0.1:8080")])));
        assert!(!same_origin(&headers(&[(HOST, "a:1"), (ORIGIN, "file://a:1")])));
    }
}
