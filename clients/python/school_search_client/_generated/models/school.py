from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..models.grade import Grade, check_grade
from ..models.school_level import SchoolLevel, check_school_level
from ..models.school_tag import SchoolTag, check_school_tag
from ..models.school_type import SchoolType, check_school_type
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
            accents, punctuation, synonyms and small words aside), or the name without a last word
            "School" (`lincoln elementary` for *Lincoln Elementary School*), or, for a ranked
            school (a college or university), the name without its generic words or its campus
            (`harvard` for *Harvard University*, `berkeley` for *University of
            California-Berkeley*); 0.97:
            the query is one of its alternative names. Otherwise at most 0.95:
            0.95 × (words found − 1 + average credit of the words found) ÷ words in the query,
            where a found word's credit is 1 for a whole word of the name (typed or a synonym),
            0.95 for a translation, 0.9 for a whole word of an alternative name; 0.8 and 0.7 for
            the start of a word of the name or of an alternative name; 0.6 and 0.5 for a word
            with a typo; 0.4, 0.3 and 0.2 for a whole word, start or typo in the city. So
            `harvard` scores 0.95 for *Harvard Academy*, `harv` 0.76, and a school that has
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
        level (SchoolLevel | Unset): The school's level. For a K-12 school it follows NCES's definition from its grades:
            `elementary` (lowest grade PK–3, highest PK–8), `middle` (lowest 4–7, highest 4–9),
            `high` (lowest 7–12, highest 12; 11 in Québec, whose secondary school ends there),
            `other` (any other span, e.g. K–12). `postsecondary`: a college, university or other
            institution beyond grade 12. Present only when known: omitted, never null, otherwise.
             Example: high.
        lowest_grade (Grade | Unset): A grade, `PK` (pre-kindergarten), `K` (kindergarten) or `1` to `12`. Example: 9.
        highest_grade (Grade | Unset): A grade, `PK` (pre-kindergarten), `K` (kindergarten) or `1` to `12`. Example: 9.
        type_ (SchoolType | Unset): The broad kind of school: a `public` or `private` K-12 school, or a `postsecondary`
            institution (public or private: see `tags`). Present only when the directory says:
            omitted, never null, otherwise.
             Example: public.
        tags (list[SchoolTag] | Unset): Facts the school's directory states about it, in this order: `charter` (a public
            charter school), `catholic` (Catholic school or board), `separate` (a Canadian
            separate school, e.g. Alberta's separate boards), `francophone` (a French-language
            school outside Québec), `public_control`, `private_control` (who controls a college or
            postsecondary institution) and `for_profit` (a private for-profit college). A tag that
            is absent says nothing: the directory did not say. Omitted, never null or empty,
            when the directory states none.
             Example: ['charter'].
        distance_km (float | Unset): Great-circle distance in kilometres (rounded to 3 decimals) from the search's
            `near`
            point. Present only when the search has `near` and the school's coordinates are
            known; omitted, never null, otherwise.
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
    level: SchoolLevel | Unset = UNSET
    lowest_grade: Grade | Unset = UNSET
    highest_grade: Grade | Unset = UNSET
    type_: SchoolType | Unset = UNSET
    tags: list[SchoolTag] | Unset = UNSET
    distance_km: float | Unset = UNSET

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

        level: str | Unset = UNSET
        if not isinstance(self.level, Unset):
            level = self.level

        lowest_grade: str | Unset = UNSET
        if not isinstance(self.lowest_grade, Unset):
            lowest_grade = self.lowest_grade

        highest_grade: str | Unset = UNSET
        if not isinstance(self.highest_grade, Unset):
            highest_grade = self.highest_grade

        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = []
            for tags_item_data in self.tags:
                tags_item: str = tags_item_data
                tags.append(tags_item)

        distance_km = self.distance_km

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
        if level is not UNSET:
            field_dict["level"] = level
        if lowest_grade is not UNSET:
            field_dict["lowest_grade"] = lowest_grade
        if highest_grade is not UNSET:
            field_dict["highest_grade"] = highest_grade
        if type_ is not UNSET:
            field_dict["type"] = type_
        if tags is not UNSET:
            field_dict["tags"] = tags
        if distance_km is not UNSET:
            field_dict["distance_km"] = distance_km

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

        _level = d.pop("level", UNSET)
        level: SchoolLevel | Unset
        if isinstance(_level, Unset):
            level = UNSET
        else:
            level = check_school_level(_level)

        _lowest_grade = d.pop("lowest_grade", UNSET)
        lowest_grade: Grade | Unset
        if isinstance(_lowest_grade, Unset):
            lowest_grade = UNSET
        else:
            lowest_grade = check_grade(_lowest_grade)

        _highest_grade = d.pop("highest_grade", UNSET)
        highest_grade: Grade | Unset
        if isinstance(_highest_grade, Unset):
            highest_grade = UNSET
        else:
            highest_grade = check_grade(_highest_grade)

        _type_ = d.pop("type", UNSET)
        type_: SchoolType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = check_school_type(_type_)

        _tags = d.pop("tags", UNSET)
        tags: list[SchoolTag] | Unset = UNSET
        if _tags is not UNSET:
            tags = []
            for tags_item_data in _tags:
                tags_item = check_school_tag(tags_item_data)

                tags.append(tags_item)

        distance_km = d.pop("distance_km", UNSET)

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
            level=level,
            lowest_grade=lowest_grade,
            highest_grade=highest_grade,
            type_=type_,
            tags=tags,
            distance_km=distance_km,
        )

        return school
