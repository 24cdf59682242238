"""The stack's check that its port is free: a listener counts, closed connections do not."""

from __future__ import annotations

import socket
import time

from devstack.processes import free_port
from devstack.stack import _port_is_free


def test_a_port_with_a_listener_is_in_use_and_free_once_it_closes():
    port = free_port()
    listener = socket.create_server(("127.0.0.1", port))
    assert not _port_is_free(port)
    listener.close()
    assert _port_is_free(port)


def test_a_port_left_with_connections_in_time_wait_is_free():
    """As after stopping the stack and starting it again at once (seen: "port 8772 is in use")."""
    port = free_port()
    listener = socket.create_server(("127.0.0.1", port))
    client = socket.create_connection(("127.0.0.1", port))
    accepted, _ = listener.accept()
    accepted.close()  # the server side closes first, so its end waits in TIME_WAIT
    time.sleep(0.05)
    client.close()
    listener.close()
    assert _port_is_free(port)
