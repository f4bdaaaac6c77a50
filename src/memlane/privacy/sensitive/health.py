"""Health details: a condition, a treatment or a medication of the speaker, as one clause."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from memlane.text.kin import EN_KIN_MORE, EN_RELATIONS, PARTNER_BEFORE_AND_I, ZH_AFTER_ME, ZH_RELATIONS

from .table import Span

_ZH_ADV = (
    r"(?:最近|一直|也|还|都|已经|去年|前年|今年|上个月|上周|前几天|从小|小时候|早就|刚刚|刚|本身|自己"
    r"|长期|好像|可能|确实|其实|正在|每天|平时|现在|目前|又|终于|前阵子|前段时间|这几年|明天|后天|今天|昨天"
    r"|这几天|这两天|这阵子|这段时间"
    r"|(?:下|这|上)?(?:个)?(?:周|星期|礼拜)[一二三四五六日天]?|晚上|早上){0,3}"
)
_ZH_MOD = r"(?:一点|点|轻微的?|轻度|中度|重度|严重的?|慢性|急性|先天性|[12一二]型){0,2}"
# "X病/症/癌/炎" covers most named conditions (产后甲状腺炎 too); the excluded characters keep "有时间看病"
# and "有个坏毛病" out.
_ZH_COND = (
    r"(?:(?:(?![个一两几些位只条件本种的了是点毛看去治生时空问说和跟])[\u4e00-\u9fff]){1,6}"
    r"(?:病(?!毒)|症|癌|瘤|炎|结节)|(?:腰椎|颈椎)?(?:间盘|椎间盘)突出|腰突|腰肌劳损|骨折|骨质疏松|骨质增生"
    r"|(?:半月板|韧带|肩袖)(?:损伤|撕裂|断裂)|心律不齐|早搏|房颤|湿疹|荨麻疹|痔疮|囊肿|息肉|高血压|低血压|高血脂|高血糖|糖尿|抑郁|哮喘|艾滋|HIV|乙肝|癫痫|失眠|痛风"
    r"|甲亢|甲减|不孕|不育|精神分裂|双相|自闭|多动|厌食|暴食|阿尔茨海默|帕金森|红斑狼疮|偏头痛|结石"
    r"|尿毒|结核|梅毒|疱疹|新冠|贫血|脑梗|心梗|中风|结节|脂肪肝|白内障|青光眼|(?:乙肝|艾滋|HIV)?携带者?"
    r"|低血糖|乳糖不耐受?|近视|散光|色盲|色弱|弱视|残疾|残障|听力(?:不好|受损|下降)|(?:HIV|乙肝|新冠)阳性"
    r"|[\u4e00-\u9fff]{0,4}病史|遗传病|心理疾病|心理问题)"
)
_ZH_MED = (
    r"[\u4e00-\u9fff]{0,6}?(?:药|胰岛素|激素|二甲双胍|阿司匹林|布洛芬|抗生素|头孢|青霉素|安眠|他汀"
    r"|华法林|优甲乐|舍曲林|氟西汀|帕罗西汀|避孕|褪黑素)"
)
# someone close to the speaker: their health is as private as the speaker's own ("我爸高血压好多年了")
_ZH_KIN = (
    r"(?:我|我的|我家)?(?:" + "|".join(sorted([*ZH_RELATIONS, *ZH_AFTER_ME], key=len, reverse=True)) + ")"
)
_ZH_PROCEDURE = (
    r"(?:做过|做了|做完|动过|动了|刚做完|要做)[\u4e00-\u9fff]{0,8}?"
    r"(?:手术|胃镜|肠镜|化疗|透析|放疗|支架|搭桥|移植|穿刺|活检|产检|(?i:lasik))"
)
_BLOOD_TYPE = (
    r"(?:(?i:blood\s{0,3}type)|血型)\s{0,3}(?:(?i:is|was)|是|为|:|：)?\s{0,3}(?:AB|A|B|O)(?![A-Za-z])"
    r"|(?<![A-Za-z])(?:AB|A|B|O)型血|熊猫血|Rh阴性"
)
_EN_COND = (
    r"(?:diabetes|cancer|tumou?r|leuka?emia|lymphoma|depression|anxiety(?:\s+disorder)?"
    r"|panic\s+(?:attacks?|disorder)|bipolar(?:\s+disorder)?|schizophrenia|adhd|autism|ptsd|ocd|hiv|aids"
    r"|hepatitis(?:\s+[abc])?|asthma|epilepsy|seizures|hypertension|high\s+blood\s+pressure"
    r"|high\s+cholesterol|heart\s+(?:disease|condition|failure|problems)|arthritis|migraines?|insomnia"
    r"|sleep\s+apnea|anorexia|bulimia|eating\s+disorder|dementia|alzheimer'?s|parkinson'?s"
    r"|multiple\s+sclerosis|lupus|crohn'?s(?:\s+disease)?|celiac(?:\s+disease)?|ibs|(?:long\s+)?covid"
    r"|tuberculosis|stds?|stis?|herpes|chlamydia|gonorrhea|syphilis|endometriosis|pcos|infertility"
    r"|kidney\s+(?:disease|failure|stones)|liver\s+disease|cirrhosis|hypothyroidism|hyperthyroidism"
    r"|thyroid\s+(?:disease|problems|issues)|fibromyalgia|chronic\s+pain|allerg(?:y|ies)|psoriasis|eczema"
    r"|scoliosis|disability|stroke|gout|an(?:a)?emia|mental\s+illness|(?:medical|health)\s+condition"
    r"|down'?s?\s+syndrome"
    r"|pneumonia|concussion|miscarriage|surgery|an?\s+operation|heart\s+attack|fever|lactose\s+intoleran(?:ce|t)"
    r"|gluten\s+intoleran(?:ce|t)|dyslexia|tinnitus|vertigo|glaucoma|cataracts?|sciatica|hernia|ulcers?"
    r"|acid\s+reflux|gerd|gallstones|low\s+blood\s+sugar|hypoglyc(?:a)?emia"
    # a disc, and the inflammations medicine names with -itis (thyroiditis, tendonitis, colitis)
    r"|(?:herniated|slipped|bulging|ruptured)\s+discs?|[a-z]{3,}itis"
    r"|(?:an?\s+)?(?:food\s+)?intolerance|hearing\s+loss)"
)
_EN_MED = (
    r"(?:insulin|metformin|antidepressants?|ssris?|sertraline|zoloft|prozac|fluoxetine|lexapro"
    r"|escitalopram|xanax|alprazolam|valium|adderall|ritalin|lithium|chemo(?:therapy)?|radiation\s+therapy"
    r"|dialysis|statins?|blood\s+thinners?|warfarin|birth\s+control|antibiotics|painkillers|opioids"
    r"|oxycodone|methadone|prednisone|steroids|levothyroxine|antipsychotics?"
    r"|(?:blood\s+pressure|anxiety|diabetes|thyroid|heart|sleeping)\s+(?:meds|medications?|pills)"
    r"|medications?|meds|hormone\s+(?:therapy|replacement)|hrt|inhaler|epipen"
    r"|prescription\s+(?:drugs|meds|medication)|melatonin|concerta|the\s+pill)"
)
_EN_MOD = (
    r"(?:(?:a|an|the|some|own|severe|mild|chronic|early|bad|terrible|clinical|postpartum|ongoing"
    r"|type\s+[12]|stage\s+[1-4iv]{1,3}|breast|lung|skin|prostate|colon"
    r"|knee|hip|back|heart|shoulder|eye|brain|spine|spinal|wrist|ankle)\s+){0,3}"
)
_CLINICIAN = (
    r"doctor|doc|gp|dr\.?(?:\s+[a-z]+)?|physician|psychiatrist|specialist|consultant|neurologist"
    r"|cardiologist|oncologist|endo(?:crinologist)?|nurse\s+practitioner"
)
_EN_KIN = (
    r"(?:my|his|her|our)\s+(?:little\s+|baby\s+|older\s+|younger\s+|big\s+|eldest\s+|youngest\s+)?(?:"
    + "|".join(
        sorted(
            (re.escape(w).replace(r"\ ", r"\s+") for w in [*EN_RELATIONS, *EN_KIN_MORE]),
            key=len,
            reverse=True,
        )
    )
    + r")(?:s|ren)?"
    # …and the relative's name, when it follows: "my partner Sam is allergic to shellfish", "my wife,
    # Ana, has asthma" (a capital, whatever the case the rest is read in)
    + r"(?:,?\s+(?-i:[A-Z][a-z]+)(?:\s+(?-i:[A-Z][a-z]+))?(?=[\s,]),?)?"
)
_EN_ME = (
    r"\bI(?:'m|’m|\s+am|'ve|’ve|\s+have|\s+was)?(?:\s+(?:also|still|just|recently|currently|now|always"
    r"|really|actually|been|was|finally|officially|newly|clinically|severely|so|very)){0,3}\s+"
)
_EN_HEALTH_SOURCE = (
    rf"{_EN_ME}(?:(?:got|get|getting|just\s+got)\s+)?(?:diagnosed|pregnant|diabetic|epileptic|asthmatic|anorexic|bulimic|bipolar|autistic"
    rf"|hiv[- ]positive|infertile|allergic\s+to|in\s+(?:chemo(?:therapy)?|rehab|remission|therapy|recovery)"
    rf"|on\s+(?:dialysis|{_EN_MED})|taking\s+(?:my\s+)?{_EN_MED}|being\s+treated\s+for|recovering\s+from"
    rf"|(?:seeing|see|saw)\s+a\s+(?:therapist|psychiatrist|psychologist|counsell?or|oncologist|cardiologist)"
    rf"|(?:[0-9]{{1,2}}\s+(?:weeks?|months?)\s+)?(?:pregnant|postpartum)|expecting(?=\s*(?:[.!?,;]|$))"
    rf"|colou?r\s*blind|(?:lactose|gluten)\s+intolerant|hospitali[sz]ed|deaf|hard\s+of\s+hearing|in\s+a\s+wheelchair"
    rf"|(?:a\s+)?(?:recovering\s+)?(?:alcoholic|addict)|in\s+aa|going\s+through\s+(?:ivf|chemo|menopause)"
    rf"|(?:a\s+)?(?:type\s+[12]\s+)?diabetic|(?:one|two|three|four|five|six|seven|eight|nine)\s+months\s+pregnant"
    rf"|(?:going|go)\s+to\s+therapy|on\s+the\s+pill)\b"
    # the subject left out, or a couple's: "been on lexapro since march", "we're expecting, due in october"
    rf"|\b(?:been|started|starting|still)\s+on\s+{_EN_MED}\b"
    rf"|\bwe(?:'re|’re|\s+are)\s+(?:\w+\s+)?expecting(?=\s*(?:[.!?,;]|$|\s+(?:a\s+baby|twins|our)))"
    rf"|{_EN_ME}(?:have|has|had|got|get|developed|suffer(?:ed)?\s+from|struggle[sd]?\s+with"
    rf"|live[sd]?\s+with|battled?|beat|take|took|use|inject|need|started|stopped)\s+(?:my\s+)?{_EN_MOD}"
    rf"(?:(?!no\s|any\s)[a-z]+\s+(?=allerg))?(?:{_EN_COND}|{_EN_MED})\b"
    rf"|\bmy\s+{_EN_MOD}(?:{_EN_COND}|{_EN_MED})\b"
    rf"|\b(?:my|his|her|their)\s+(?:therapist|psychiatrist|psychologist|oncologist|cholesterol"
    rf"|blood\s+(?:pressure|sugar)|a1c|due\s+date)\b"
    rf"|\b(?:{_EN_KIN}|he|she|they)(?:'s|’s|\s+has|\s+had|\s+is|\s+was)?\s+(?:got\s+|been\s+)?"
    rf"(?:diagnosed\s+with\s+)?{_EN_MOD}(?:[a-z]+\s+)?(?:{_EN_COND}|pregnant|autistic|diabetic"
    rf"|on\s+the\s+autism\s+spectrum)\b"
    rf"|\b(?:got|had|have|having|getting)\s+(?:my|his|her|their)\s+(?:wisdom\s+teeth|appendix|tonsils|gallbladder"
    rf"|adenoids)\s+(?:out|removed|pulled|taken\s+out)\b|\b(?:c-section|caesarean|cesarean|postpartum)\b"
    rf"|\b{_EN_KIN}(?:'s|’s|\s+is|\s+was)?\s+(?:also\s+|severely\s+)?allergic\s+to\b"
    rf"|\b(?:broke|tore|fractured|sprained|dislocated)\s+(?:my|his|her|their)\s+(?:acl|arm|leg|wrist|ankle"
    rf"|hip|knee|back|neck|shoulder|ribs?|collarbone|foot|hand|finger|toe|nose|jaw)\b"
    rf"|\bblood\s+type\s+(?:is\s+)?(?-i:AB|A|B|O)\b|\b(?:his|her|their)\s+{_EN_MOD}{_EN_COND}\b"
    rf"|\b(?:my\s+)?doctor\s+(?:says|said|told\s+me)\b|\bmy\s+(?:blood\s+(?:test|work)|test)\s+results\b"
    # what a clinician found or gave, whoever it was for and with no subject, as people text it: "got
    # diagnosed with celiac", "the doctor prescribed me amoxicillin", "my GP started me on beta blockers"
    rf"|\bdiagnosed\s+with\b|\b(?:got|get|getting|was|were|been|being|just|recently|finally)\s+diagnosed\b"
    rf"|\b(?:was|were|got|been|get|getting)\s+prescribed\b|\bprescribed\s+(?:me|him|her|them|us)\b"
    rf"|\b(?:{_CLINICIAN})\s+(?:put|started|switched|moved|took|upped|increased|lowered|doubled)\s+"
    rf"(?:me|him|her|them|us|my\s+(?:dose|dosage|meds|medication))\b"
    rf"|\b(?:therapist|psychiatrist|psychologist|counsell?or)\s+(?:says|said|told|thinks|wants|suggested)\b"
    rf"|\brecovering\s+from\s+(?:(?:a|an|my|his|her|the)\s+)?{_EN_MOD}(?:{_EN_COND})\b"
    rf"|\b(?:(?:started|starting|began|restarted|finished|back\s+in)\s+(?:therapy|counsell?ing|physio(?:therapy)?"
    rf"|hrt)|chemo(?:therapy)?|radiotherapy|radiation\s+treatment|dialysis|ivf"
    rf"|(?:in|into|to|from|out\s+of|after|left|finished|checked\s+into)\s+rehab|rehab\s+(?:was|is|for|center|centre))\b"
    rf"|\b(?:{_EN_KIN}|he|she)(?:'s|’s|\s+is|\s+was|\s+has\s+been)\s+(?:still\s+|now\s+|also\s+)?"
    rf"(?:on|taking)\s+{_EN_MED}\b"
    # pregnancy, sobriety and what the body relies on, in the words people text
    rf"|\b(?:[0-9]{{1,2}}|a\s+few)\s+weeks\s+along\b|\bwe(?:'re|’re|\s+are)\s+pregnant\b"
    rf"|\b(?:[0-9]{{1,3}}|a|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:days?|weeks?|months?|years?)"
    rf"\s+(?:sober|clean)\b(?!\s+of)|\bsober\s+(?:since|for)\b"
    rf"|\bI(?:'m|’m|\s+am|\s+have|'ve\s+got|\s+got)\s+type\s+(?:1|2|one|two)\b(?!\s*(?:fun|error|font))"
    rf"|\b(?:pacemaker|hearing\s+aids?|insulin\s+pump|cpap(?:\s+machine)?|glucose\s+monitor|prosthetic\s+\w+"
    rf"|colostomy|stoma)\b"
)
# Gaps are bounded so an "I" before a megabyte of blanks is not retried blank by blank.
_EN_HEALTH = re.compile(_EN_HEALTH_SOURCE.replace(r"\s+", r"\s{1,3}"), re.IGNORECASE)
# A clause start counts as first person: Chinese drops the subject, "确诊了…" means the speaker.
# (or after a word that opens a new clause: "我在银行上班但是去年确诊了糖尿病")
_ZH_START = r"(?:(?<![^\s，。；！？;!?,.:：、\n])|(?<=但是|可是|然而|而且|并且))(?=[\u4e00-\u9fff])"
_ZH_HEALTH = re.compile(
    rf"(?:我|本人|{_ZH_START}){_ZH_ADV}(?:复查|体检|检查|去医院)?(?:被|已)?(?:确诊|诊断出|被诊断|患有|患上|怀孕|怀上|怀了(?:宝宝|孩子|二胎)|怀[二三]胎"
    rf"|住院|化疗|做化疗|透析|(?:在吃|正在吃|一直吃|每天吃|长期吃|吃着|在服用|服用|在打|打着|每天打|天天打|定期打|打|注射|靠){_ZH_MED})"
    rf"|(?:我|本人|{_ZH_KIN}){_ZH_ADV}(?:有|得了|得过|患了|是|查出(?:来)?了?有?|检查出(?:来)?了?有?){_ZH_MOD}{_ZH_COND}"
    rf"|{_ZH_KIN}{_ZH_ADV}{_ZH_MOD}{_ZH_COND}|(?:医生|大夫)(?:说|让我|建议我?|给我开)"
    rf"|{_ZH_START}{_ZH_ADV}(?:体检|检查)?(?:得了|查出(?:来)?了?有?|检查出(?:来)?了?有?|复查|说是){_ZH_MOD}{_ZH_COND}"
    rf"|(?:我|{_ZH_KIN}){_ZH_ADV}(?:有|得了|是)\s*(?i:{_EN_COND})|(?:带|用|吃|打)\s*(?i:{_EN_MED})"
    # a procedure counts with the speaker named, or with no subject where the message (or a quote of
    # it: "Noted: 刚做完阑尾手术") opens; "外婆住院了，做了支架手术" goes on about someone else
    rf"|(?:我|本人|^|(?<=[:：])|(?<=[:：]\s)){_ZH_ADV}(?:在|要|去)?{_ZH_PROCEDURE}"
    rf"|{_ZH_KIN}{_ZH_ADV}(?:在|要|去)?{_ZH_PROCEDURE}"
    rf"|(?:我|本人|我们|我(?:和|跟){_ZH_KIN}|{_ZH_START}){_ZH_ADV}(?:在|要|去)?(?:备孕|坐月子|流产|做产检|去医院(?:拿|开|做|复查|检查|产检))"
    rf"|(?:我|{_ZH_START}){_ZH_ADV}(?:要|在|正在|一直|每天|长期|开始|还在)?(?:晚上|早上)?(?:要)?吃(?:着|了)?(?:一|两|半)?(?:片|粒|颗)?{_ZH_MED}"
    rf"|{_ZH_KIN}{_ZH_ADV}(?:怀孕|怀上|怀了|怀二胎|确诊|住院)|预产期|{_BLOOD_TYPE}"
    rf"|(?:血压|血糖|血脂|胆固醇|尿酸|转氨酶)(?:有点|偏|一直|很|比较|也|都)?(?:高|低)|肠易激"
    rf"|心脏(?:一直|也|都|有点)?(?:不太好|不大好|不好|有问题)"
    rf"|(?:做|在做|接受|去做)心理(?:咨询|治疗)|(?:看|去看|在看)(?:心理医生|精神科)|心理医生说|试管婴儿"
    rf"|(?:家族|家里人?)(?:里|中)?(?:也|都)?有{_ZH_MOD}{_ZH_COND}|(?:在|要)?戒(?:毒|酒)|坐轮椅|发高?烧(?!友)|(?:(?<![A-Za-z])IVF)"
    rf"|我的\s*(?i:therapist|psychiatrist|psychologist)"
    rf"|(?:我|{_ZH_KIN}|{_ZH_START}){_ZH_ADV}(?:查出(?:来)?)?(?:对[^\s，。；！？,.;!?]{{1,12}}?过敏|是过敏体质)"
    rf"|(?:我|{_ZH_KIN}|他|她){_ZH_ADV}[\u4e00-\u9fff]{{0,6}}?过敏|我的{_ZH_MOD}{_ZH_COND}|我的{_ZH_MED}"
    # the speaker's childbirth, as private as the pregnancy before it ("上个月刚生完宝宝", "我是剖腹产的")
    rf"|(?:我|{_ZH_START}){_ZH_ADV}(?:生完|生了|生下)(?:宝宝|孩子|二胎|老二|小孩|儿子|女儿)"
    rf"|剖腹产|剖宫产|顺产|产后(?:抑郁|恢复|修复|出血)"
    # treatments and devices no one has for any other reason, whoever has them ("我妈在做化疗", "我戴助听器")
    rf"|化疗|放疗|透析|助听器|起搏器|胰岛素泵|假肢|呼吸机"
)
# English "." and "," end a clause only before a space, so "2.5mg" and "a.b@x.com" stay whole.
# (A full-width comma arrives folded to ",": next to a Chinese character it ends a clause too.)
# So does an English "and" / "but" / "so" in front of a new subject ("I'm a sound engineer and I got
# diagnosed with tinnitus"), unless what stands before it shares that subject ("my wife and I"), and a
# Chinese 但是 / 而且 or a space between two Chinese words ("我是程序员 最近在吃抗焦虑的药").
_CLAUSE_END = re.compile(
    r"[，。；！？;!?\n]|[,.](?=\s|$)|(?<=[\u3400-\u9fff])[,.]|[,.](?=[\u3400-\u9fff])"
    r"|(?P<word>\s+(?:and|but|so)\s+(?=(?:I|I'm|I've|I'd|I'll|my|we)\b))"
    r"|(?P<zh_word>但是|可是|然而|而且|并且|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff]))"
)
# a cue that ends in what someone told the speaker ("医生说", "my therapist says") reaches to the next stop:
# what was said is the detail ("医生说 我要多运动")
_TOLD = re.compile(r"(?:说|讲|让我|建议我?|给我开|要我|叫我|(?i:says?|said|told\s+me|wants\s+me\s+to))\s*$")


_HAN = re.compile(r"[\u4e00-\u9fff]|(?i:blood|ivf)")  # the Chinese pattern also reads these
_LATIN = re.compile(r"[A-Za-z]")


def find(text: str) -> Iterator[Span]:
    """Each clause holding a health detail in ``text``."""
    # each language's pattern runs only where there is text in that language
    wanted = [p for p, script in ((_ZH_HEALTH, _HAN), (_EN_HEALTH, _LATIN)) if script.search(text)]
    matches = [m for p in wanted for m in p.finditer(text)]
    if not matches:
        return
    marks = [
        (b.start(), b.end(), b.lastgroup)
        for b in _CLAUSE_END.finditer(text)
        if b.lastgroup != "word"
        or PARTNER_BEFORE_AND_I.search(text[max(0, b.start() - 60) : b.start()]) is None
    ]
    mark_starts, mark_ends = [a for a, _, _ in marks], [b for _, b, _ in marks]
    stop_starts = [a for a, _, group in marks if group is None]  # punctuation only
    clauses: set[tuple[int, int]] = set()  # one span per clause, however many cues it holds
    for m in matches:
        before = bisect.bisect_right(mark_ends, m.start())
        reach = stop_starts if _TOLD.search(m.group()) else mark_starts
        after = bisect.bisect_left(reach, m.end())
        clauses.add(
            (mark_ends[before - 1] if before else 0, reach[after] if after < len(reach) else len(text))
        )
    for start, end in clauses:
        yield "health", start, end
