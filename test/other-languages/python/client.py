"""A Python team's client, built only as docs/other-languages.md says: stubs from proto/
with grpc_tools.protoc, google/api and google/rpc from googleapis-common-protos, grpcio.

Run by test/other-languages/python-client.test.ts against a test server. It prints one
JSON report on stdout; the test asserts on it. Environment: CPB_TARGET (host:port),
CPB_TOKEN (an access token), CPB_REST (the REST base URL), and the stubs on PYTHONPATH.
"""

import json
import os
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import grpc
from google.protobuf import json_format
from google.rpc import error_details_pb2, status_pb2

from commercialpolicybenchmark.v2 import (
    assessment_pb2,
    assessment_pb2_grpc,
    company_pb2,
    company_pb2_grpc,
    loss_details_pb2,
    loss_details_pb2_grpc,
    peer_group_pb2,
    peer_group_pb2_grpc,
    reference_pb2,
    reference_pb2_grpc,
    trend_pb2,
    trend_pb2_grpc,
)

TARGET = os.environ["CPB_TARGET"]
REST = os.environ["CPB_REST"]
METADATA = (("authorization", "Bearer " + os.environ["CPB_TOKEN"]),)
PREFIX = "/commercialpolicybenchmark/v2.0"

GROUP = {
    "naics": ["52"],
    "coverageId": 1,
    "lineOfBusinessId": [0],
    "exposureType": "Revenues",
    "exposureRangeLow": 0,
    "exposureRangeHigh": 10000000,
}
AMOUNTS = {"premium": 50000, "limit": 5000000}

# Every RPC of every service: (service stub, method, request message, its JSON, the REST
# call answering the same: method, path, body, and the answer field REST returns alone).
CALLS = [
    (assessment_pb2_grpc.AssessmentServiceStub, "GetAssessmentData", assessment_pb2.GetAssessmentDataRequest,
     {**GROUP, **AMOUNTS, "retention": 100000},
     ("GET", "/assessment/getassessmentdata?naics=52&coverageId=1&lineOfBusinessId=0&exposureType=Revenues"
             "&exposureRangeLow=0&exposureRangeHigh=10000000&premium=50000&limit=5000000&retention=100000", None)),
    (assessment_pb2_grpc.AssessmentServiceStub, "PostAssessmentData", assessment_pb2.PostAssessmentDataRequest,
     {**GROUP, **AMOUNTS}, ("POST", "/assessment/getassessmentdata", None)),
    (assessment_pb2_grpc.AssessmentServiceStub, "GetRpmDistributionData",
     assessment_pb2.GetRpmDistributionDataRequest, {**GROUP, **AMOUNTS},
     ("POST", "/assessment/getrpmdistributiondata", None)),
    (assessment_pb2_grpc.AssessmentServiceStub, "GetTotalProgramCount", assessment_pb2.GetTotalProgramCountRequest,
     GROUP, ("POST", "/assessment/getTotalProgramCount", "totalProgramCount")),
    (assessment_pb2_grpc.AssessmentServiceStub, "GetTotalLossCount", assessment_pb2.GetTotalLossCountRequest,
     GROUP, ("POST", "/assessment/getTotalLossCount", "totalLossCount")),
    (company_pb2_grpc.CompanyServiceStub, "GetCompany", company_pb2.GetCompanyRequest, {"id": 1},
     ("GET", "/company/1", "company")),
    (company_pb2_grpc.CompanyServiceStub, "SearchCompanies", company_pb2.SearchCompaniesRequest,
     {"$top": 3}, ("GET", "/company?$top=3", None)),
    (loss_details_pb2_grpc.LossDetailsServiceStub, "GetLossDetails", loss_details_pb2.GetLossDetailsRequest,
     {"lossEventId": 1}, ("GET", "/lossdetails/1", "lossDetail")),
    (loss_details_pb2_grpc.LossDetailsServiceStub, "GetLimitAdequacy", loss_details_pb2.GetLimitAdequacyRequest,
     {**GROUP, "clientLimit": 5000000}, ("POST", "/lossdetails/getlimitadequacydata", "limitAdequacy")),
    (loss_details_pb2_grpc.LossDetailsServiceStub, "PostLimitAdequacyData",
     loss_details_pb2.PostLimitAdequacyDataRequest, {**GROUP, "clientLimit": 5000000},
     ("POST", "/lossdetails/getlimitadequacydata", "limitAdequacy")),
    (loss_details_pb2_grpc.LossDetailsServiceStub, "GetLossExperience", loss_details_pb2.GetLossExperienceRequest,
     {**GROUP, "years": 5, "limits": [5000000]}, ("POST", "/lossdetails/getlossexperience", None)),
    (peer_group_pb2_grpc.PeerGroupServiceStub, "SuggestPeerGroups", peer_group_pb2.SuggestPeerGroupsRequest,
     {**GROUP, "minPrograms": 30}, ("POST", "/peergroup/suggestpeergroups", None)),
    (reference_pb2_grpc.ReferenceServiceStub, "GetReferenceData", reference_pb2.GetReferenceDataRequest, {},
     ("GET", "/reference/getreferencedata", None)),
    (trend_pb2_grpc.MarketTrendServiceStub, "GetMarketTrend", trend_pb2.GetMarketTrendRequest,
     {**GROUP, "periodMonths": 6, "periods": 4}, ("POST", "/trend/getmarkettrend", None)),
]


def rest(method, path, body):
    request = urllib.request.Request(
        REST + PREFIX + path,
        method=method,
        data=None if method == "GET" else json.dumps(body).encode(),
        headers={"authorization": METADATA[0][1], "content-type": "application/json"},
    )
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


def same(grpc_value, rest_value):
    """The gRPC answer's JSON (int64 as strings, defaults left out) against REST's (numbers, every field)."""
    if isinstance(grpc_value, dict):
        return isinstance(rest_value, dict) and all(same(v, rest_value.get(k)) for k, v in grpc_value.items())
    if isinstance(grpc_value, list):
        return isinstance(rest_value, list) and len(grpc_value) == len(rest_value) and all(
            same(g, r) for g, r in zip(grpc_value, rest_value))
    if isinstance(grpc_value, str) and isinstance(rest_value, (int, float)) and not isinstance(rest_value, bool):
        return float(grpc_value) == float(rest_value)
    return grpc_value == rest_value


def every_rpc(channel):
    results = []
    for stub_class, method, request_class, request_json, (rest_method, path, field) in CALLS:
        request = json_format.ParseDict(request_json, request_class())
        answer = getattr(stub_class(channel), method)(request, metadata=METADATA, timeout=30)
        answer_json = json_format.MessageToDict(answer)
        rest_json = rest(rest_method, path, request_json)
        compared = answer_json.get(field, 0) if field else answer_json
        results.append({"rpc": method, "sameAsRest": same(compared, rest_json), "grpc": answer_json})
    return results


def field_violation(channel):
    """A bad input, read with googleapis-common-protos alone: google.rpc.Status, then BadRequest."""
    stub = assessment_pb2_grpc.AssessmentServiceStub(channel)
    request = json_format.ParseDict({**GROUP, "naics": ["5"]}, assessment_pb2.GetTotalProgramCountRequest())
    try:
        stub.GetTotalProgramCount(request, metadata=METADATA, timeout=30)
        return {"code": "OK"}
    except grpc.RpcError as error:
        details = dict(error.trailing_metadata() or ()).get("grpc-status-details-bin")
        violations = []
        for detail in status_pb2.Status.FromString(details).details if details else []:
            if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                bad_request = error_details_pb2.BadRequest()
                detail.Unpack(bad_request)
                violations += [{"field": v.field, "description": v.description} for v in bad_request.field_violations]
        return {"code": error.code().name, "violations": violations}


RETRY_POLICY = json.dumps({
    "methodConfig": [{
        "name": [{"service": "commercialpolicybenchmark.v2.LossDetailsService"}],
        "retryPolicy": {
            "maxAttempts": 5,
            "initialBackoff": "0.05s",
            "maxBackoff": "1s",
            "backoffMultiplier": 2,
            "retryableStatusCodes": ["UNAVAILABLE"],
        },
    }],
})


def codes_of(futures):
    """How many of the calls ended with each status code."""
    codes = []
    for future in futures:
        try:
            future.result()
            codes.append("OK")
        except grpc.RpcError as error:
            codes.append(error.code().name)
    return {code: codes.count(code) for code in set(codes)}


def refusal_storm(options):
    """20 concurrent broad calls against a gate of 1 + 4: how many answer."""
    with grpc.insecure_channel(TARGET, options=options) as channel:
        stub = loss_details_pb2_grpc.LossDetailsServiceStub(channel)
        request = json_format.ParseDict({**GROUP, "clientLimit": 5000000}, loss_details_pb2.PostLimitAdequacyDataRequest())
        futures = [stub.PostLimitAdequacyData.future(request, metadata=METADATA, timeout=30) for _ in range(20)]
        return codes_of(futures)


DEADLINE_CALLS = 10


def deadlines():
    """Ten concurrent calls with a 1 ms deadline, named by x-request-id so the test finds their log lines."""
    with grpc.insecure_channel(TARGET) as channel:
        stub = loss_details_pb2_grpc.LossDetailsServiceStub(channel)
        request = json_format.ParseDict({**GROUP, "clientLimit": 5000000}, loss_details_pb2.PostLimitAdequacyDataRequest())
        stub.PostLimitAdequacyData(request, metadata=METADATA, timeout=30)  # connected before the clock starts
        futures = [
            stub.PostLimitAdequacyData.future(
                request, metadata=METADATA + (("x-request-id", f"python-deadline-{i}"),), timeout=0.001)
            for i in range(DEADLINE_CALLS)
        ]
        return codes_of(futures)


def main():
    with grpc.insecure_channel(TARGET) as channel:
        report = {
            "rpcs": every_rpc(channel),
            "fieldViolation": field_violation(channel),
        }
    report["deadlines"] = deadlines()
    report["stormWithoutPolicy"] = refusal_storm([])
    report["stormWithPolicy"] = refusal_storm([("grpc.service_config", RETRY_POLICY), ("grpc.enable_retries", 1)])
    print(json.dumps(report))


if __name__ == "__main__":
    main()
