"""The benchmark's figures as the tables it prints."""

from __future__ import annotations

import os
from pathlib import Path


def action_table(actions: dict) -> list[str]:
    lines = [f"  {'action':<10}{'count':>8}{'per s':>9}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}"]
    for kind, figures in actions.items():
        if not figures.get("count"):
            lines.append(f"  {kind:<10}{0:>8}")
            continue
        lines.append(
            f"  {kind:<10}{figures['count']:>8}{figures.get('per_s', ''):>9}"
            f"{figures['p50_ms']:>9.1f}{figures['p95_ms']:>9.1f}"
            f"{figures['p99_ms']:>9.1f}{figures['max_ms']:>9.1f}"
        )
    return lines


def push_line(push: dict) -> list[str]:
    """The live-push latency of a phase, if any move was pushed."""
    if not push.get("count"):
        return []
    return [
        f"  push to the other seat: p50 {push['p50_ms']:.1f} ms, p95 {push['p95_ms']:.1f} ms, "
        f"p99 {push['p99_ms']:.1f} ms, max {push['max_ms']:.1f} ms ({push['count']} moves)"
    ]


def phase_footer(result: dict) -> list[str]:
    cpu = result["cpu"]
    lines = [
        f"  errors: {sum(result['errors'].values())} {result['errors'] or ''}".rstrip(),
        *(f"    e.g. {sample}" for sample in result["error_samples"]),
        f"  CPU (cores): client {cpu['client_core_share']:.2f}"
        + "".join(f", {name} {cores:.2f}" for name, cores in cpu.get("server_cores", {}).items())
        + f"; whole machine {cpu['machine_busy_share']:.0%} busy",
    ]
    return lines


def report(results: dict) -> str:
    out = [f"Server: {results['server']}", f"Machine: {results['machine']}", ""]
    if "assets" in results:
        out.append("First visit, empty cache (Accept-Encoding: gzip, deflate, br):")
        out.append(
            f"  {'page':<13}{'requests':>9}{'transferred':>13}{'+headers':>10}"
            f"{'HTML':>9}{'HTML gz':>9}  HTML encoding"
        )
        for page in results["assets"]:
            out.append(
                f"  {page['page']:<13}{page['requests']:>9}{page['body_bytes'] / 1024:>10.1f} KB"
                f"{page['wire_bytes'] / 1024:>7.1f} KB{page['html_bytes'] / 1024:>6.1f} KB"
                f"{page['html_gzip_bytes'] / 1024:>6.1f} KB  {page['html_encoding']}"
            )
        for page in results["assets"][:1]:
            for line in page["files"]:
                out.append(
                    f"    {line['path']:<58}{line['encoding']:>6}{line['body'] / 1024:>7.1f} KB"
                )
        out.append("  (HTML gz: the page gzipped here, to compare with raw HTML; target 30 KB)")
        out.append("")
    if "saturation" in results:
        real, ref = results["saturation"]["real"], results["saturation"]["reference"]
        out.append(
            f"Saturation: {real['games']} online games at once, as fast as answers come "
            "within each page's frame budget, "
            f"{real['seconds_measured']} s measured ({real['games_finished']} games finished):"
        )
        out += action_table(real["actions"])
        out += push_line(real["push"])
        out += phase_footer(real)
        out.append(f"Reference action: {ref['clients']} clients, {ref['fragment_bytes']} B each:")
        out += action_table(ref["actions"])
        out += phase_footer(ref)
        out.append(
            f"  real/reference throughput: {results['saturation']['ratio']:.2f} (target >= 0.8)"
        )
        out.append("")
    if "human" in results:
        human = results["human"]
        title = (
            f"Human pace: {human['games'] * 2} players in {human['games']} games, the player "
            f"to move acts every {results['pace']} s, {human['seconds_measured']} s measured "
            f"(asked {human['games'] / results['pace']:.0f} actions/s):"
        )
        out += played_lines(title, human)
    if "human_reference" in results:
        out += reference_lines(results["human_reference"], results["pace"])
    if "arena" in results:
        out += arena_lines(results)
    return "\n".join(out)


def played_lines(title: str, phase: dict) -> list[str]:
    """A phase of games played: its actions, the push to the other seat, errors and CPU."""
    return [title, *action_table(phase["actions"]), *push_line(phase["push"]), *phase_footer(phase)]


def reference_lines(ref: dict, pace: float) -> list[str]:
    """The reference action posted at a phase's pace."""
    return [
        f"Reference action at the same rate: {ref['clients']} clients, each posting it "
        f"every {pace} s:",
        *action_table(ref["actions"]),
        *phase_footer(ref),
    ]


def arena_lines(results: dict) -> list[str]:
    arena = results["arena"]
    title = (
        f"Arena: {arena['players']} players in one arena of {arena['arena_seconds']} s, the "
        f"player to move acts every {results['pace']} s; {arena['games']} games "
        f"({arena['games_finished']} played to their end), {arena['tournament_pushes']} messages "
        f"to the tournament pages; its page at the end: {arena['status_at_the_end']}:"
    )
    out = played_lines(title, arena)
    if "arena_reference" in results:
        ref = results["arena_reference"]
        out += reference_lines(ref, results["pace"])
        real_p99 = arena["actions"]["all"].get("p99_ms")
        ref_p99 = ref["actions"]["reference"].get("p99_ms")
        if real_p99 and ref_p99:
            out.append(
                f"  arena p99 / reference p99: {real_p99:.1f} / {ref_p99:.1f} ms = "
                f"{real_p99 / ref_p99:.2f} (the issue: at most 2)"
            )
    return out


def error_count(phase: object) -> int:
    """How many errors a phase's results (or the saturation pair of them) hold."""
    if isinstance(phase, dict):
        return sum(phase.get("errors", {}).values()) + sum(map(error_count, phase.values()))
    return 0


def machine() -> str:
    model = next(
        (line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
         if line.startswith("model name")), "unknown CPU",
    )  # fmt: skip
    memory = int(Path("/proc/meminfo").read_text().split()[1]) / 1024 / 1024
    load = os.getloadavg()[0]
    return f"{os.cpu_count()} cores ({model}), {memory:.0f} GiB, load average {load:.1f} at start"
