#!/usr/bin/env python3
"""Prints each failed test of the given .trx files with the first lines of its message.

The test script calls it just before the totals, so that the end of a CI log (often all that is
kept) names what failed and why instead of only counting it.
"""
import os
import sys
import xml.etree.ElementTree as ElementTree

NS = {"t": "http://microsoft.com/schemas/VisualStudio/TeamTest/2010"}
MESSAGE_LINES = 12


def failures(path):
    root = ElementTree.parse(path).getroot()
    for result in root.iterfind(".//t:UnitTestResult", NS):
        if result.get("outcome") in ("Passed", "NotExecuted"):
            continue
        message = result.findtext("t:Output/t:ErrorInfo/t:Message", "", NS)
        stack = result.findtext("t:Output/t:ErrorInfo/t:StackTrace", "", NS)
        yield result.get("testName"), result.get("outcome"), message, stack


def main(paths):
    for path in paths:
        if not os.path.isfile(path):
            continue
        for name, outcome, message, stack in failures(path):
            print(f"FAILED ({outcome}): {name}")
            lines = (message.strip() + "\n" + stack.strip()).strip().splitlines()
            for line in lines[:MESSAGE_LINES]:
                print(f"    {line}")
            if len(lines) > MESSAGE_LINES:
                print(f"    ... ({len(lines) - MESSAGE_LINES} more lines in {path})")


if __name__ == "__main__":
    main(sys.argv[1:])
