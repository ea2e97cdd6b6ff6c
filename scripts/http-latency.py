#!/usr/bin/env python3
"""Latency of an HTTP GET under concurrent clients: each of CLIENTS threads keeps one
connection open and asks for the URL REQUESTS times in a row; prints the percentiles of all
the requests' times (from sending to the whole body read) and how many were not 200.

    scripts/http-latency.py http://127.0.0.1:8080/api/games --clients 20 --requests 50
"""
import argparse
import http.client
import threading
import time
import urllib.parse


def client(url, requests, times, failures, lock):
    parts = urllib.parse.urlsplit(url)
    path = parts.path + ("?" + parts.query if parts.query else "")
    connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=60)
    mine, failed = [], 0
    for _ in range(requests):
        began = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        mine.append((time.perf_counter() - began) * 1000)
        if response.status != 200:
            failed += 1
    connection.close()
    with lock:
        times.extend(mine)
        failures.append(failed)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url")
    parser.add_argument("--clients", type=int, default=1)
    parser.add_argument("--requests", type=int, default=100)
    options = parser.parse_args()
    times, failures, lock = [], [], threading.Lock()
    threads = [
        threading.Thread(target=client, args=(options.url, options.requests, times, failures, lock))
        for _ in range(options.clients)
    ]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    times.sort()

    def at(p):
        return times[min(len(times) - 1, int(p / 100 * len(times)))]

    print(
        f"{len(times)} requests from {options.clients} clients in {elapsed:.1f} s: "
        f"p50 {at(50):.1f} ms, p95 {at(95):.1f} ms, p99 {at(99):.1f} ms, max {times[-1]:.1f} ms; "
        f"{sum(failures)} not 200"
    )


if __name__ == "__main__":
    main()
