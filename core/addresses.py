"""Where a browser connects from, for the limits by address: the connection's address, or behind a
trusted proxy (``settings.TRUSTED_PROXIES``) the one the proxy saw."""

from __future__ import annotations

import functools
import ipaddress
import re
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The address of the browser, for the rate limits by address ("" when there is none).

    The connection's address; but when that is one of settings.TRUSTED_PROXIES, the address the
    proxy says it was connected from. Each proxy appends that address to X-Forwarded-For, so the
    list is read from the end: the first address that is not a trusted proxy is the client (any
    before it were written by the client, and may be made up).
    """
    remote = _address(request.META.get("REMOTE_ADDR", ""))
    proxies = _networks(tuple(settings.TRUSTED_PROXIES))
    if not _is_proxy(remote, proxies):
        return str(remote or "")
    for hop in reversed(request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")):
        forwarded = _address(hop.strip())
        if not _is_proxy(forwarded, proxies):
            return str(forwarded or remote)
    return str(remote)


# An address some proxies write with the client's port: "203.0.113.7:5678" or
# "[2001:db8::1]:443". Read as they stand, these are no address, and the proxy's own (loopback)
# address would be counted instead: exempt, so every limit by address would be off. A bare IPv6
# address has more than one colon and keeps its last group.
WITH_PORT = re.compile(r"\[(?P<v6>[0-9A-Fa-f:.]+)\](?::\d{1,5})?|(?P<v4>[\d.]+):\d{1,5}")


def _address(text: str) -> IPv4Address | IPv6Address | None:
    if ported := WITH_PORT.fullmatch(text):
        text = ported["v6"] or ported["v4"]
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    return (ip.ipv4_mapped or ip) if isinstance(ip, IPv6Address) else ip


@functools.cache
def _networks(proxies: tuple[str, ...]) -> tuple[IPv4Network | IPv6Network, ...]:
    return tuple(ipaddress.ip_network(proxy, strict=False) for proxy in proxies)


def _is_proxy(ip: IPv4Address | IPv6Address | None, networks: tuple) -> bool:
    return ip is not None and any(ip.version == net.version and ip in net for net in networks)
