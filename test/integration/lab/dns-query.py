#!/usr/bin/python3
"""dns-query.py SERVER NAME: one DNS A query over UDP (what `dig +short` prints: the addresses, one
per line; nothing when there is no answer). For tests that ask a cluster's DNS from inside a lab
network namespace, where no dig is installed."""
import random
import socket
import struct
import sys


def main():
    server, name = sys.argv[1], sys.argv[2]
    qid = random.randrange(1 << 16)
    q = struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0, 0)
    q += b"".join(bytes([len(p)]) + p.encode() for p in name.rstrip(".").split(".")) + b"\0"
    q += struct.pack(">HH", 1, 1)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(3)
    s.sendto(q, (server, 53))
    data, _ = s.recvfrom(4096)
    rid, flags, qd, an = struct.unpack(">HHHH", data[:8])
    if rid != qid or flags & 0xF:
        return 1
    off = 12
    for _ in range(qd):  # skip the question
        while data[off]:
            off += data[off] + 1
        off += 5
    for _ in range(an):
        if data[off] & 0xC0 == 0xC0:
            off += 2
        else:
            while data[off]:
                off += data[off] + 1
            off += 1
        rtype, _, _, rdlen = struct.unpack(">HHIH", data[off:off + 10])
        off += 10
        if rtype == 1 and rdlen == 4:
            print(socket.inet_ntoa(data[off:off + 4]))
        off += rdlen
    return 0


if __name__ == "__main__":
    sys.exit(main())
