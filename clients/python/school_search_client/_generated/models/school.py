from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..models.state_code import StateCode, check_state_code
from ..types import UNSET, Unset

T = TypeVar("T", bound="School")


@_attrs_define
class School:
    """
    Attributes:
        schoolid (UUID): Identifier of the school; stable across re-imports of the same directory.
        schoolname (str):
        stateprovince (StateCode): Two-letter code of a US state, the District of Columbia, a US territory or freely
            associated state (AS, FM, GU, MH, MP, PR, PW, VI), or a Canadian province or territory.
        city (str):
        image_url (str): The school's logo, or a generated monogram where no logo is known.
        similarity_score (float): How well the school matches the query, from 0 to 1, rounded to 4 decimals; never
            higher
            than the score of the result before it. 1: the query is the school's name (case,
            accents, punctuation, synonyms and small words aside); 0.97: the query is one of its
            alternative names. Otherwise at most 0.95:
            0.95 × (words found − 1 + average credit of the words found) ÷ words in the query,
            where a found word's credit is 1 for a whole word of the name (typed or a synonym),
            0.95 for a translation, 0.9 for a whole word of an alternative name; 0.8 and 0.7 for
            the start of a word of the name or of an alternative name; 0.6 and 0.5 for a word
            with a typo; 0.4, 0.3 and 0.2 for a whole word, start or typo in the city. So
            `harvard` scores 0.95 for *Harvard University*, `harv` 0.76, and a school that has
            one of two words at most 0.475. Words no school has count in "words in the query"
            (and scale 1 and 0.97 by the share of the others). The same on every store and
            search engine.
        total_count (int): Number of all schools matching the search; the same in every element.
        address (str | Unset): The school's street address as its directory gives it (e.g. `Massachusetts Hall`,
            `3737 Rue Sherbrooke Est`). Present only when the directory has one: omitted, never
            null or empty, when it is unknown.
        postal_code (str | Unset): The school's postal code as its directory gives it (a US ZIP or ZIP+4 such as `02138`
            or `02138-3800`, a Canadian postal code such as `H1X 2Y4`). Present only when known:
            omitted, never null or empty, otherwise.
        latitude (float | Unset): Latitude of the school in decimal degrees (WGS 84), as its directory gives it. Present
            only when known, and then together with `longitude`; omitted, never null, otherwise.
        longitude (float | Unset): Longitude of the school in decimal degrees (WGS 84), as its directory gives it.
            Present
            only when known, and then together with `latitude`; omitted, never null, otherwise.
    """

    schoolid: UUID
    schoolname: str
    stateprovince: StateCode
    city: str
    image_url: str
    similarity_score: float
    total_count: int
    address: str | Unset = UNSET
    postal_code: str | Unset = UNSET
    latitude: float | Unset = UNSET
    longitude: float | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        schoolid = str(self.schoolid)

        schoolname = self.schoolname

        stateprovince: str = self.stateprovince

        city = self.city

        image_url = self.image_url

        similarity_score = self.similarity_score

        total_count = self.total_count

        address = self.address

        postal_code = self.postal_code

        latitude = self.latitude

        longitude = self.longitude

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "schoolid": schoolid,
                "schoolname": schoolname,
                "stateprovince": stateprovince,
                "city": city,
                "image_url": image_url,
                "similarity_score": similarity_score,
                "total_count": total_count,
            }
        )
        if address is not UNSET:
            field_dict["address"] = address
        if postal_code is not UNSET:
            field_dict["postal_code"] = postal_code
        if latitude is not UNSET:
            field_dict["latitude"] = latitude
        if longitude is not UNSET:
            field_dict["longitude"] = longitude

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        schoolid = UUID(d.pop("schoolid"))

        schoolname = d.pop("schoolname")

        stateprovince = check_state_code(d.pop("stateprovince"))

        city = d.pop("city")

        image_url = d.pop("image_url")

        similarity_score = d.pop("similarity_score")

        total_count = d.pop("total_count")

        address = d.pop("address", UNSET)

        postal_code = d.pop("postal_code", UNSET)

        latitude = d.pop("latitude", UNSET)

        longitude = d.pop("longitude", UNSET)

        school = cls(
            schoolid=schoolid,
            schoolname=schoolname,
            stateprovince=stateprovince,
            city=city,
            image_url=image_url,
            similarity_score=similarity_score,
            total_count=total_count,
            address=address,
            postal_code=postal_code,
            latitude=latitude,
            longitude=longitude,
        )

        return school
