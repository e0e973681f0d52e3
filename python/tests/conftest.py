"""Shared paths: the repository root (tests read its data/, models/ and reports/)."""

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def root() -> pathlib.Path:
    return ROOT
