#!/usr/bin/env python3
"""Writes the pingmesh CSVs in this directory (read by tests/tst_analysis_probes.cpp and tst_cli).

The fabric is the real ibsim fat tree of ../ibsim (fattree.net: 2 spines, 4 leaves, 8 HCAs) and
every probe travels the route opensm programmed there: the forwarding tables of ../ibsim/dump_fts.txt
are traced hop by hop (the probe's route and its reply's). Faults planted:
  - the cable leaf02 port 1 <-> spine01 port 2 drops LOSS of the packets crossing it, either way;
  - the host gpu008 answers SLOW_US (+ up to 10 us) late (a busy host, not a link).
Every pair (8 x 7, ordered) is probed in ROUNDS rounds of SENT probes, 10 s apart.
Outputs (deterministic, seeded):
  pingmesh.csv          the faulty fabric, no path column
  pingmesh-path.csv     the same measurements with the traced forward route in the path column
  pingmesh-healthy.csv  no fault: uniform jitter noise and a single lost probe (trap)
Usage: python3 make-pingmesh.py   (no arguments; rewrites the three files)
"""
import os
import random
import re

HERE = os.path.dirname(os.path.abspath(__file__))
IBSIM = os.path.join(HERE, "..", "ibsim")
T0, ROUNDS, SENT, LOSS, SLOW_US = 1700000000, 60, 5, 0.04, 20.0
LOSSY = frozenset({("leaf02", 1), ("spine01", 2)})
SLOW_HOST = "gpu008 mlx5_0"


def read_net():
    """(node, port) -> (peer node, peer port) from the ibsim net file."""
    peer, node = {}, None
    for line in open(os.path.join(IBSIM, "fattree.net")):
        m = re.match(r'^(Switch|Hca)\s+\d+\s+"([^"]+)"', line)
        if m:
            node = m.group(2)
            continue
        m = re.match(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\]', line)
        if m and node:
            peer[(node, int(m.group(1)))] = (m.group(2), int(m.group(3)))
    return peer


def read_fts():
    """switch name -> {dlid: out port}, and node name -> LID, from dump_fts."""
    tables, lid_of, sw = {}, {}, None
    for line in open(os.path.join(IBSIM, "dump_fts.txt")):
        m = re.match(r"^Unicast lids .*\((\S+)\):", line)
        if m:
            sw = m.group(1)
            tables[sw] = {}
            continue
        m = re.match(r"^0x([0-9a-f]+) (\d+) : \(\w[\w ]* portguid 0x[0-9a-f]+: '([^']+)'\)", line)
        if m and sw:
            lid = int(m.group(1), 16)
            tables[sw][lid] = int(m.group(2))
            lid_of[m.group(3)] = lid
    return tables, lid_of


def route(src, dst, peer, tables, lid_of):
    """[(node, out port, next node, in port)] from host src to host dst along the tables."""
    hops, node, port = [], src, 1
    while True:
        nxt, nport = peer[(node, port)]
        hops.append((node, port, nxt, nport))
        if nxt == dst:
            return hops
        node, port = nxt, tables[nxt][lid_of[dst]]
        if len(hops) > 16:
            raise RuntimeError("routing loop")


def crosses_lossy(hops):
    return any(frozenset({(a, pa), (b, pb)}) == LOSSY for a, pa, b, pb in hops)


def path_text(hops):
    parts = [f"{a} p{pa}" for a, pa, _, _ in hops]
    last = hops[-1]
    return ">".join(parts + [f"{last[2]} p{last[3]}"])


def write(name, faulty, with_path, seed):
    rnd = random.Random(seed)
    peer, tables, lid_of = read_net(), *read_fts()
    hosts = sorted(n for n in lid_of if n.startswith("gpu"))
    leaf = {h: peer[(h, 1)][0] for h in hosts}
    single_loss_row = (7, "gpu002 mlx5_0", "gpu005 mlx5_0")  # the healthy trap's one lost probe
    with open(os.path.join(HERE, name), "w") as out:
        out.write("timestamp,src,dst,rtt_us,sent,lost" + (",path" if with_path else "") + "\n")
        for r in range(ROUNDS):
            for s in hosts:
                for d in hosts:
                    if s == d:
                        continue
                    fwd, back = route(s, d, peer, tables, lid_of), route(d, s, peer, tables, lid_of)
                    base = 2.0 if leaf[s] == leaf[d] else 3.0
                    lost = 0
                    if faulty and (crosses_lossy(fwd) or crosses_lossy(back)):
                        lost = sum(1 for _ in range(SENT) if rnd.random() < LOSS or rnd.random() < LOSS)
                    if not faulty and (r, s, d) == single_loss_row:
                        lost = 1
                    rtt = base + rnd.uniform(0, 0.6)
                    if faulty and SLOW_HOST in (s, d):
                        rtt += SLOW_US + rnd.uniform(0, 10)
                    t = T0 + 10 * r + rnd.uniform(0, 2)
                    # Host names as pingmesh agents write them: the first word of the description.
                    row = f"{t:.3f},{s.split()[0]},{d.split()[0]},{'' if lost == SENT else f'{rtt:.2f}'},{SENT},{lost}"
                    out.write(row + (f",{path_text(fwd)}" if with_path else "") + "\n")


write("pingmesh.csv", True, False, 10)
write("pingmesh-path.csv", True, True, 10)
write("pingmesh-healthy.csv", False, False, 11)
