"""Form texts filled from templates, for the evaluation kit's `template` class: SMS notices (hospital
appointments, deliveries, bank alerts), letters (admission, offer), invoices and order confirmations,
invitations, official notices (water cut-off, safety) and product pages, in Chinese and English. Each fill
draws its own names, places, dates, times, amounts and ids; two fills of one template are different
documents (they must not group) however much text they share. Some fills get a copy as an editor's
folder holds it: one character mistyped, re-wrapped, saved in another encoding, punctuation made
full-width or half-width, or saved again with Windows line ends (these must group with their fill).

    fills(rng, per_template) -> [(template name, language, text)]   # per_template fills of every template
    copy_of(text, language, rng, kind) -> (text, encoding)            # a copy of one fill
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from bench.quality import transforms as tf

# ---- what fills the slots ----

ZH_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁"
    "任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
)
ZH_COMPOUND_SURNAMES = ("欧阳", "司马", "上官", "诸葛", "东方", "慕容", "令狐", "皇甫")
ZH_GIVEN = (
    "伟",
    "芳",
    "娜",
    "敏",
    "静",
    "丽",
    "强",
    "磊",
    "军",
    "洋",
    "勇",
    "艳",
    "杰",
    "娟",
    "涛",
    "明",
    "超",
    "秀英",
    "霞",
    "平",
    "刚",
    "桂英",
    "建华",
    "文",
    "华",
    "红梅",
    "志强",
    "晓东",
    "海燕",
    "玉兰",
    "子涵",
    "欣怡",
    "浩然",
    "梓萱",
    "宇轩",
    "雨桐",
    "思远",
    "嘉怡",
    "俊杰",
    "晨曦",
    "一鸣",
    "佳琪",
    "建国",
    "春梅",
    "国庆",
    "淑珍",
)
EN_FIRST = (
    "James",
    "Mary",
    "Robert",
    "Patricia",
    "John",
    "Jennifer",
    "Michael",
    "Linda",
    "David",
    "Elizabeth",
    "William",
    "Barbara",
    "Richard",
    "Susan",
    "Joseph",
    "Jessica",
    "Thomas",
    "Sarah",
    "Charles",
    "Karen",
    "Daniel",
    "Nancy",
    "Matthew",
    "Lisa",
    "Anthony",
    "Margaret",
    "Mark",
    "Sandra",
    "Steven",
    "Ashley",
    "Andrew",
    "Emily",
    "Joshua",
    "Michelle",
    "Kevin",
    "Amanda",
    "Brian",
    "Melissa",
    "Oliver",
    "Chloe",
)
EN_LAST = (
    "Smith",
    "Johnson",
    "Williams",
    "Brown",
    "Jones",
    "Garcia",
    "Miller",
    "Davis",
    "Rodriguez",
    "Martinez",
    "Hernandez",
    "Lopez",
    "Wilson",
    "Anderson",
    "Taylor",
    "Moore",
    "Jackson",
    "Martin",
    "Lee",
    "Thompson",
    "White",
    "Harris",
    "Clark",
    "Lewis",
    "Robinson",
    "Walker",
    "Young",
    "Allen",
    "King",
    "Wright",
    "Scott",
    "Nguyen",
    "Hill",
    "Green",
    "Adams",
    "Baker",
    "Nelson",
    "Carter",
    "Mitchell",
    "Roberts",
    "O'Brien",
)
ZH_CITIES = (
    "昆明",
    "成都",
    "杭州",
    "南京",
    "武汉",
    "西安",
    "长沙",
    "郑州",
    "济南",
    "合肥",
    "福州",
    "南宁",
    "贵阳",
    "兰州",
    "太原",
    "石家庄",
    "哈尔滨",
    "长春",
    "沈阳",
    "南昌",
    "苏州",
    "无锡",
    "宁波",
    "厦门",
    "青岛",
    "大连",
    "佛山",
    "东莞",
)
ZH_DISTRICTS = (
    "五华区",
    "盘龙区",
    "西湖区",
    "鼓楼区",
    "江汉区",
    "雁塔区",
    "岳麓区",
    "金水区",
    "历下区",
    "蜀山区",
    "天河区",
    "海淀区",
    "朝阳区",
    "浦东新区",
    "南山区",
    "锦江区",
    "武侯区",
    "秦淮区",
    "思明区",
    "市南区",
)
ZH_STREETS = (
    "人民路",
    "解放路",
    "中山路",
    "建设路",
    "和平路",
    "新华路",
    "文化路",
    "青年路",
    "北京路",
    "长江路",
    "滨江路",
    "学府路",
    "春熙路",
    "东风路",
    "环城南路",
    "科技二路",
    "金沙江路",
    "黄河大道",
    "望京西路",
    "长安街",
)
ZH_HOSPITALS = ("人民医院", "第一人民医院", "中医医院", "妇幼保健院", "中心医院", "儿童医院", "附属第二医院")
ZH_DEPARTMENTS = (
    "内科",
    "外科",
    "儿科",
    "妇科",
    "眼科",
    "口腔科",
    "皮肤科",
    "骨科",
    "耳鼻喉科",
    "消化内科",
    "心内科",
    "神经内科",
)
ZH_UNIVERSITIES = (
    "云南大学",
    "四川大学",
    "浙江工业大学",
    "南京师范大学",
    "华中农业大学",
    "西北大学",
    "湖南师范大学",
    "郑州大学",
)
ZH_COLLEGES = (
    ("信息学院", "计算机科学与技术"),
    ("外国语学院", "英语"),
    ("经济学院", "金融学"),
    ("化学学院", "应用化学"),
    ("法学院", "法学"),
    ("数学学院", "统计学"),
    ("新闻学院", "广告学"),
    ("建筑学院", "城乡规划"),
)
ZH_COMPANIES = (
    "云岭科技有限公司",
    "华联商贸有限公司",
    "恒信建设集团",
    "天合物流股份有限公司",
    "新力电子有限公司",
    "博远教育咨询有限公司",
    "瑞丰食品有限公司",
    "中和医药有限公司",
)
ZH_POSITIONS = (
    "Java 开发工程师",
    "产品经理",
    "财务专员",
    "行政助理",
    "销售代表",
    "UI 设计师",
    "数据分析师",
    "人力资源专员",
)
ZH_PRODUCTS = (
    ("小米", "空气净化器 4 Pro", "台"),
    ("美的", "变频空调 KFR-35GW", "台"),
    ("华为", "MatePad 11 平板电脑", "台"),
    ("九阳", "豆浆机 DJ13B", "台"),
    ("罗技", "无线鼠标 M330", "个"),
    ("李宁", "跑步鞋 赤兔 6", "双"),
    ("苏泊尔", "电饭煲 SF40FC", "台"),
    ("得力", "A4 复印纸 70g", "箱"),
    ("良品铺子", "坚果礼盒 1.5kg", "盒"),
)
ZH_STATIONS = ("菜鸟驿站", "丰巢快递柜", "妈妈驿站", "兔喜生活")
ZH_BANKS = ("招商银行", "中国工商银行", "中国建设银行", "交通银行", "中国银行")
ZH_SHOPS = ("美团外卖", "京东商城", "永辉超市", "中国石化加油站", "星巴克", "滴滴出行", "携程旅行", "盒马鲜生")
ZH_SAFETY_REASONS = ("台风", "强降雨", "高温", "寒潮", "大风")
ZH_WORKS = ("供水管网改造", "主干管道抢修", "二次供水设施清洗", "阀门更换", "管网碰口施工")
EN_CITIES = (
    ("Springfield", "IL", "62704"),
    ("Portland", "OR", "97205"),
    ("Austin", "TX", "78701"),
    ("Madison", "WI", "53703"),
    ("Columbus", "OH", "43215"),
    ("Denver", "CO", "80202"),
    ("Raleigh", "NC", "27601"),
    ("Boise", "ID", "83702"),
    ("Albany", "NY", "12207"),
    ("Tucson", "AZ", "85701"),
)
EN_STREETS = (
    "Maple Avenue",
    "Oak Street",
    "Pine Road",
    "Cedar Lane",
    "Elm Street",
    "Washington Boulevard",
    "Lake Drive",
    "Hillside Avenue",
    "Park Place",
    "Sunset Boulevard",
    "River Road",
    "Church Street",
)
EN_CLINICS = (
    "Riverside Family Clinic",
    "Northgate Dental",
    "Lakeview Medical Center",
    "St. Mary's Hospital",
    "Cedar Eye Care",
    "Downtown Physical Therapy",
)
EN_MERCHANTS = (
    "AMAZON MKTPLACE",
    "WALMART SUPERCENTER",
    "SHELL OIL 5721",
    "STARBUCKS #1182",
    "TARGET T-0914",
    "UBER TRIP",
    "COSTCO WHSE #0451",
    "WHOLE FOODS MKT",
)
EN_ROLES = (
    "Software Engineer",
    "Marketing Coordinator",
    "Financial Analyst",
    "Customer Success Manager",
    "Data Scientist",
    "Registered Nurse",
    "Graphic Designer",
    "Operations Associate",
)
EN_PRODUCTS = (
    ("Acme", "Stainless Steel Water Bottle, 32 oz"),
    ("Northwind", "Wireless Noise-Cancelling Headphones"),
    ("Contoso", "Ergonomic Office Chair with Lumbar Support"),
    ("Fabrikam", "Cast Iron Skillet, 12 inch"),
    ("Tailspin", "LED Desk Lamp with USB Charging Port"),
    ("Litware", "Waterproof Hiking Backpack, 40 L"),
)
EN_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
EN_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


class Slots:
    """Draws the values one fill puts in its template's slots."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def pick(self, items):
        return self.rng.choice(items)

    def zh_name(self) -> str:
        rng = self.rng
        surname = rng.choice(ZH_COMPOUND_SURNAMES) if rng.random() < 0.05 else rng.choice(ZH_SURNAMES)
        given = rng.choice(ZH_GIVEN)
        return surname + given + (rng.choice(ZH_GIVEN)[0] if len(given) == 1 and rng.random() < 0.3 else "")

    def en_name(self) -> tuple[str, str]:
        return self.rng.choice(EN_FIRST), self.rng.choice(EN_LAST)

    def digits(self, n: int) -> str:
        return str(self.rng.randrange(1, 10)) + "".join(str(self.rng.randrange(10)) for _ in range(n - 1))

    def letters(self, n: int) -> str:
        return "".join(self.rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ") for _ in range(n))

    def phone_zh(self) -> str:
        return self.pick(("138", "139", "150", "186", "177", "135")) + self.digits(8)

    def phone_en(self) -> str:
        return f"({self.digits(3)}) {self.digits(3)}-{self.digits(4)}"

    def date(self) -> tuple[int, int, int]:
        return self.rng.randint(2023, 2026), self.rng.randint(1, 12), self.rng.randint(1, 28)

    def time(self) -> tuple[int, int]:
        return self.rng.randint(7, 20), self.rng.choice((0, 10, 15, 20, 30, 40, 45, 50))

    def amount(self, low: float, high: float) -> str:
        return f"{self.rng.uniform(low, high):,.2f}"

    def en_date(self) -> str:
        y, m, d = self.date()
        return f"{EN_MONTHS[m - 1]} {d}, {y}"


# ---- the templates: each a function of the fill's slots ----


def signed(*lines: str) -> str:
    """A letter's closing lines, set to the right as word processors leave them."""
    return "".join(f"{' ' * 34}{line}\n" for line in lines)


def zh_hospital_sms(s: Slots) -> str:
    _, m, d = s.date()
    h, mi = s.time()
    return (
        f"【{s.pick(ZH_CITIES)}{s.pick(ZH_HOSPITALS)}】{s.zh_name()}您好，您预约的{m}月{d}日{h}:{mi:02d}"
        f"{s.pick(ZH_DEPARTMENTS)}"
        f"门诊已成功，就诊序号{s.rng.randint(1, 60)}号，请提前30分钟携带身份证及医保卡到门诊{s.rng.randint(1, 5)}楼"
        f"自助机签到取号。如需取消请于就诊前一日回复QX{s.digits(4)}。"
    )


def zh_delivery_sms(s: Slots) -> str:
    _, m, d = s.date()
    return (
        f"【{s.pick(('顺丰速运', '中通快递', '京东物流', '韵达快递'))}】您的快递{s.pick(('SF', 'JD', 'YT', 'ZT'))}{s.digits(13)}"
        f"已到达{s.pick(ZH_CITIES)}{s.pick(ZH_STREETS)}{s.rng.randint(1, 300)}号{s.pick(ZH_STATIONS)}，"
        f"取件码{s.digits(1)}-{s.digits(1)}-{s.digits(4)}，"
        f"请于{m}月{d}日21:00前凭取件码领取，逾期将退回。如有疑问请联系{s.phone_zh()}。"
    )


def zh_bank_sms(s: Slots) -> str:
    _, m, d = s.date()
    h, mi = s.time()
    bank = s.pick(ZH_BANKS)
    return (
        f"【{bank}】您尾号{s.digits(4)}的储蓄卡于{m}月{d}日{h}:{mi:02d}在{s.pick(ZH_SHOPS)}消费支出人民币{s.amount(5, 3000)}元，"
        f"当前余额{s.amount(100, 80000)}元。如非本人操作，请立即致电客服热线95{s.digits(3)}冻结账户。"
    )


def zh_admission_letter(s: Slots) -> str:
    y, m, d = s.date()
    college, major = s.pick(ZH_COLLEGES)
    university = s.pick(ZH_UNIVERSITIES)
    return (
        f"{university}\n录取通知书\n\n{s.zh_name()}同学：\n\n"
        f"    经{s.pick(('云南', '四川', '浙江', '江苏', '湖北', '陕西', '河南', '山东'))}省教育考试院批准，你已被我校"
        f"{college}{major}专业录取，学制四年。请凭本通知书于{y}年9月{d}日至{d + 1}日到我校{s.pick(ZH_CITIES)}校区报到。\n\n"
        f"    你的考生号为{s.digits(14)}，录取通知书编号为{y}{s.digits(6)}。报到时请携带本通知书、身份证、"
        f"高考准考证及近期一寸免冠照片八张。学费及住宿费合计{s.amount(5000, 9000)}元，可通过“校园缴费平台”缴纳，"
        f"家庭经济困难的新生可通过“绿色通道”办理入学手续。\n\n"
        f"    入学后学校将进行新生资格复查，复查不合格者取消入学资格。\n\n"
        + signed(f"{university}招生办公室", f"{y}年{m}月{d}日")
    )


def zh_offer_letter(s: Slots) -> str:
    y, m, d = s.date()
    company = s.pick(ZH_COMPANIES)
    name = s.zh_name()
    return (
        f"录用通知书\n\n尊敬的{name}{s.pick(('先生', '女士'))}：\n\n"
        f"    感谢您对{company}的信任与支持。经过面试与综合评估，我们很高兴地通知您，您已被录用为我公司"
        f"{s.pick(ZH_POSITIONS)}一职，现将有关事项通知如下：\n\n"
        f"    一、入职时间：{y}年{m}月{d}日上午9:00；\n"
        f"    二、工作地点：{s.pick(ZH_CITIES)}市{s.pick(ZH_DISTRICTS)}{s.pick(ZH_STREETS)}{s.rng.randint(1, 500)}号；\n"
        f"    三、试用期：{s.pick(('三', '六'))}个月，试用期月薪人民币{s.amount(5000, 20000)}元（税前），转正后月薪人民币"
        f"{s.amount(8000, 30000)}元（税前）；\n"
        f"    四、报到时请携带身份证、学历学位证书原件及复印件、近期体检报告和离职证明。\n\n"
        f"    请于收到本通知后三个工作日内回复确认。如有疑问，请联系人力资源部{s.zh_name()}，电话{s.phone_zh()}。\n\n"
        + signed(f"{company}人力资源部", f"{y}年{m}月{d}日")
    )


def zh_order_confirmation(s: Slots) -> str:
    y, m, d = s.date()
    h, mi = s.time()
    brand, product, unit = s.pick(ZH_PRODUCTS)
    count = s.rng.randint(1, 3)
    price = s.rng.randint(39, 3999)
    return (
        f"订单确认\n\n订单编号：{y}{m:02d}{d:02d}{s.digits(10)}\n"
        f"下单时间：{y}-{m:02d}-{d:02d} {h:02d}:{mi:02d}:{s.rng.randint(0, 59):02d}\n\n"
        f"商品名称：{brand} {product}\n数量：{count}{unit}\n单价：¥{price}.00\n运费：¥0.00\n"
        f"优惠：-¥{s.rng.randint(0, 30)}.00\n实付金额：¥{count * price - s.rng.randint(0, 30)}.00\n\n"
        f"收货人：{s.zh_name()}\n联系电话：{s.phone_zh()[:3]}****{s.digits(4)}\n"
        f"收货地址：{s.pick(ZH_CITIES)}市{s.pick(ZH_DISTRICTS)}{s.pick(ZH_STREETS)}{s.rng.randint(1, 800)}号"
        f"{s.rng.randint(1, 30)}栋{s.rng.randint(1, 3)}单元{s.rng.randint(101, 2806)}室\n\n"
        f"您的订单已提交成功，我们将尽快为您发货。发票将随货寄出，如需开具增值税专用发票，请在订单详情页申请。\n"
    )


def zh_invitation(s: Slots) -> str:
    """One event, many guests: the fills differ in the guest's name and title only."""
    return (
        f"邀请函\n\n尊敬的{s.zh_name()}{s.pick(('先生', '女士', '教授', '老师'))}：\n\n"
        f"    值此新春佳节来临之际，云岭科技有限公司谨定于2025年1月18日（星期六）下午14:30在昆明市盘龙区"
        f"北京路1088号如意大酒店三楼宴会厅举办“携手同行·共创未来”客户答谢会，届时将回顾一年来的合作成果，"
        f"并发布新一年的产品规划。诚挚邀请您拨冗莅临。\n\n"
        f"    敬请于1月15日前回复是否出席，联系人：行政部李静，电话0871-63318899。\n\n"
        + signed("云岭科技有限公司", "2025年1月6日")
    )


def zh_water_notice(s: Slots) -> str:
    y, m, d = s.date()
    district = s.pick(ZH_DISTRICTS)
    return (
        f"停水通知\n\n尊敬的用户：\n\n    因{s.pick(ZH_WORKS)}需要，我公司定于{y}年{m}月{d}日{s.rng.randint(7, 11)}:00至"
        f"{s.rng.randint(16, 22)}:00对{district}{s.pick(ZH_STREETS)}、{s.pick(ZH_STREETS)}沿线及"
        f"{s.pick(('阳光花园', '锦绣家园', '翠湖小区', '金色港湾', '书香苑', '滨江一号'))}等区域暂停供水，"
        f"恢复供水时间视施工进度可能提前或推迟。\n\n"
        f"    请受影响的用户提前做好储水准备，停水期间请关闭家中水龙头，以免来水时造成损失。恢复供水初期水质"
        f"可能浑浊，请放水片刻后再使用。由此给您带来的不便，敬请谅解。\n\n"
        f"    服务热线：{s.digits(4)}-{s.digits(8)}\n\n"
        + signed(f"{s.pick(ZH_CITIES)}市自来水有限公司", f"{y}年{m}月{max(1, d - 2)}日")
    )


def zh_safety_notice(s: Slots) -> str:
    y, m, d = s.date()
    weather = s.pick(ZH_SAFETY_REASONS)
    return (
        f"关于做好{weather}天气安全防范工作的通知\n\n各部门、各车间：\n\n"
        f"    据{s.pick(ZH_CITIES)}市气象台{m}月{d}日发布的预报，{m}月{d + 1}日至{d + 3}日我市将出现{weather}天气，"
        f"局部地区风力可达{s.rng.randint(6, 11)}级。为确保员工生命财产安全和生产经营秩序，现就有关事项通知如下：\n\n"
        f"    一、各部门要立即组织开展安全隐患排查，重点检查厂房、仓库、配电室和临时设施，发现问题及时整改。\n"
        f"    二、{weather}期间暂停一切高空作业和户外动火作业，露天堆放的物资要加固或转移。\n"
        f"    三、严格执行24小时值班和领导带班制度，值班电话{s.digits(4)}-{s.digits(7)}，值班负责人{s.zh_name()}。\n"
        f"    四、如遇突发情况，要第一时间上报安全生产办公室，不得迟报、漏报、瞒报。\n\n"
        + signed(f"{s.pick(ZH_COMPANIES)}安全生产委员会", f"{y}年{m}月{d}日")
    )


def zh_product_page(s: Slots) -> str:
    brand, product, unit = s.pick(ZH_PRODUCTS)
    return (
        f"{brand} {product}\n\n京东价：¥{s.rng.randint(39, 3999)}.00    累计评价：{s.rng.randint(100, 99999)}+\n"
        f"商品编号：{s.digits(12)}\n店铺：{brand}官方旗舰店\n配送至：{s.pick(ZH_CITIES)}{s.pick(ZH_DISTRICTS)}  "
        f"有货，{s.rng.randint(18, 23)}:00前下单，预计明天送达\n\n"
        f"服务支持：7天无理由退货 · 211限时达 · 全国联保\n\n规格参数\n品牌：{brand}\n型号：{s.letters(2)}-{s.digits(4)}\n"
        f"颜色：{s.pick(('白色', '黑色', '深空灰', '浅蓝色', '玫瑰金'))}\n毛重：{s.rng.randint(1, 30)}.{s.rng.randint(0, 9)}kg\n"
        f"产地：中国大陆\n\n售后保障\n厂家服务：本产品全国联保，享受三包服务，质保期为：{s.rng.randint(1, 3)}年质保\n"
        f"如因质量问题或故障，凭厂商维修中心或特约维修点的质量检测证明，享受7日内退货，15日内换货。\n"
    )


def en_appointment_sms(s: Slots) -> str:
    first, _ = s.en_name()
    _, doctor = s.en_name()
    h, mi = s.time()
    return (
        f"Hi {first}, this is a reminder of your appointment with Dr. {doctor} at {s.pick(EN_CLINICS)} on "
        f"{s.pick(EN_DAYS)}, {s.en_date()} at {(h - 1) % 12 + 1}:{mi:02d} {'AM' if h < 12 else 'PM'}. Please "
        f"arrive 15 minutes early and bring your insurance card. Reply C to confirm or call {s.phone_en()} to "
        f"reschedule. Ref {s.letters(2)}{s.digits(6)}"
    )


def en_delivery_sms(s: Slots) -> str:
    h, _ = s.time()
    city, state, _ = s.pick(EN_CITIES)
    return (
        f"{s.pick(('UPS', 'FedEx', 'USPS'))}: Your package {s.pick(('1Z', '7489', '9400'))}{s.digits(14)} from "
        f"{s.pick(('Amazon', 'Best Buy', 'Etsy', 'Chewy', 'Wayfair'))} is scheduled for delivery "
        f"{s.pick(EN_DAYS)}, "
        f"{s.en_date()} between {(h - 1) % 12 + 1}:00 and {(h + 1) % 12 + 1}:00 to {s.rng.randint(10, 9999)} "
        f"{s.pick(EN_STREETS)}, {city}, {state}. Track or change delivery: ups.com/t/{s.letters(4)}{s.digits(5)}"
    )


def en_bank_alert(s: Slots) -> str:
    h, mi = s.time()
    return (
        f"{s.pick(('Chase', 'Wells Fargo', 'Citi', 'Bank of America'))} Alert: A charge of ${s.amount(3, 2500)} at "
        f"{s.pick(EN_MERCHANTS)} was made on your card ending in {s.digits(4)} on {s.en_date()} at "
        f"{h:02d}:{mi:02d}. Available balance: ${s.amount(50, 25000)}. Not you? Call {s.phone_en()} now. "
        f"Reply STOP to end alerts."
    )


def en_offer_letter(s: Slots) -> str:
    first, last = s.en_name()
    city, state, zipcode = s.pick(EN_CITIES)
    _, manager = s.en_name()
    return (
        f"{s.en_date()}\n\n{first} {last}\n{s.rng.randint(10, 9999)} {s.pick(EN_STREETS)}\n"
        f"{city}, {state} {zipcode}\n\n"
        f"Dear {first},\n\nWe are delighted to offer you the position of {s.pick(EN_ROLES)} at Brightline "
        f"Solutions, Inc. In this role you will report to {s.pick(EN_FIRST)} {manager}, and your start date "
        f"will be {s.pick(EN_DAYS)}, {s.en_date()}.\n\n"
        f"Your annual base salary will be ${s.rng.randint(48, 160)},{s.rng.randint(0, 9)}00.00, paid bi-weekly, "
        f"and you "
        f"will be eligible for a signing bonus of ${s.rng.randint(1, 15)},000. You will also be eligible for our "
        f"standard benefits, including medical, dental and vision coverage, a 401(k) plan with a 4% company "
        f"match, and {s.rng.randint(15, 25)} days of paid time off per year.\n\n"
        f"This offer is contingent upon the successful completion of a background check and your "
        f"verification of employment eligibility. Please sign and return this letter by {s.en_date()} to "
        f"accept the offer.\n\nWe look forward to welcoming you to the team.\n\nSincerely,\n\n"
        f"{s.pick(EN_FIRST)} {s.pick(EN_LAST)}\nDirector of Human Resources\nBrightline Solutions, Inc.\n"
        f"Offer ID: OL-{s.digits(6)}\n"
    )


def en_invoice(s: Slots) -> str:
    first, last = s.en_name()
    city, state, zipcode = s.pick(EN_CITIES)
    lines, total = [], 0.0
    for _ in range(s.rng.randint(1, 3)):
        brand, product = s.pick(EN_PRODUCTS)
        qty, price = s.rng.randint(1, 4), s.rng.randint(900, 25000) / 100
        total += qty * price
        lines.append(f"{brand} {product}  x{qty}  ${price:,.2f}  ${qty * price:,.2f}")
    tax = round(total * 0.0825, 2)
    return (
        f"INVOICE\n\nInvoice #: INV-{s.digits(7)}\nInvoice date: {s.en_date()}\nDue date: {s.en_date()}\n\n"
        f"Bill to:\n{first} {last}\n{s.rng.randint(10, 9999)} {s.pick(EN_STREETS)}\n{city}, {state} {zipcode}\n\n"
        f"Description  Qty  Unit price  Amount\n"
        + "\n".join(lines)
        + f"\n\nSubtotal: ${total:,.2f}\nSales tax (8.25%): ${tax:,.2f}\nTotal due: ${total + tax:,.2f}\n\n"
        f"Payment terms: Net 30. Please make checks payable to Harbor Supply Co. or pay online at "
        f"harborsupply.example.com/pay with reference {s.letters(3)}{s.digits(5)}.\nThank you for your business!\n"
    )


def en_invitation(s: Slots) -> str:
    """One event, many guests: the fills differ in the guest's name only."""
    first, last = s.en_name()
    return (
        f"Dear {s.pick(('Mr.', 'Ms.', 'Dr.', 'Mrs.'))} {last},\n\n"
        f"On behalf of the Board of Trustees, it is my pleasure to invite you to the Riverside Community "
        f"Foundation's Annual Spring Gala, to be held on Saturday, April 12, 2025, from 6:30 PM to 10:00 PM at "
        f"the Grand Ballroom of the Hotel Marquette, 210 Lake Drive, Madison, WI.\n\n"
        f"The evening will celebrate twenty-five years of service to our community and will include dinner, "
        f"live music and a silent auction benefiting the Youth Scholarship Fund.\n\n"
        f"Kindly RSVP by March 28, 2025 to events@riversidefoundation.example.org or (608) 555-0143.\n\n"
        f"With warm regards,\n\nEleanor Whitfield\nChair, Board of Trustees\n"
    )


def en_road_notice(s: Slots) -> str:
    city, state, _ = s.pick(EN_CITIES)
    street = s.pick(EN_STREETS)
    return (
        f"PUBLIC NOTICE: WATER SERVICE INTERRUPTION\n\nCity of {city}, {state} - Department of Public Works\n\n"
        f"Residents and businesses on {street} between {s.rng.randint(1, 40) * 100} and "
        f"{s.rng.randint(41, 90) * 100} blocks will experience a water service interruption on {s.pick(EN_DAYS)}, "
        f"{s.en_date()}, from {s.rng.randint(7, 10)}:00 AM to approximately {s.rng.randint(1, 6)}:00 PM while "
        f"crews replace "
        f"a {s.pick(('6', '8', '12'))}-inch water main valve.\n\n"
        f"Please store enough water for drinking and cooking before the work begins. When service is restored, "
        f"run cold water taps for several minutes until the water runs clear. Parking will be restricted on "
        f"the work site during the repair.\n\nWork order: WO-{s.digits(6)}\nQuestions: call {s.phone_en()}\n"
    )


def en_product_page(s: Slots) -> str:
    brand, product = s.pick(EN_PRODUCTS)
    rating = s.rng.randint(30, 50) / 10
    return (
        f"{brand} {product}\n\n{rating} out of 5 stars ({s.rng.randint(12, 9800):,} ratings)\n\n"
        f"Price: ${s.rng.randint(12, 300)}.{s.rng.choice(('99', '95', '49', '00'))}\n"
        f"FREE delivery {s.pick(EN_DAYS)}, {s.pick(EN_MONTHS)} {s.rng.randint(1, 28)} on orders over $35\n\n"
        f"In Stock. Ships from and sold by {brand} Store.\n\nAbout this item\n"
        f"- Durable construction backed by a {s.rng.randint(1, 5)}-year limited warranty\n"
        f"- Dimensions: {s.rng.randint(5, 40)} x {s.rng.randint(5, 40)} x {s.rng.randint(2, 30)} inches; weight "
        f"{s.rng.randint(1, 25)}.{s.rng.randint(0, 9)} pounds\n"
        f"- Model number: {s.letters(3)}-{s.digits(5)}; ASIN: B0{s.letters(3)}{s.digits(5)}\n"
        f"- Easy returns within 30 days of receipt\n"
    )


@dataclass(frozen=True)
class Template:
    name: str
    language: str  # "zh" or "en"
    fill: Callable[[Slots], str]


TEMPLATES = tuple(
    Template(f.__name__, f.__name__[:2], f)
    for f in (
        zh_hospital_sms,
        zh_delivery_sms,
        zh_bank_sms,
        zh_admission_letter,
        zh_offer_letter,
        zh_order_confirmation,
        zh_invitation,
        zh_water_notice,
        zh_safety_notice,
        zh_product_page,
        en_appointment_sms,
        en_delivery_sms,
        en_bank_alert,
        en_offer_letter,
        en_invoice,
        en_invitation,
        en_road_notice,
        en_product_page,
    )
)


def fills(rng: random.Random, per_template: int) -> list[tuple[str, str, str]]:
    """`per_template` different fills of every template: (template name, language, text)."""
    slots = Slots(rng)
    out = []
    for template in TEMPLATES:
        seen: set[str] = set()
        while len(seen) < per_template:
            text = template.fill(slots)
            if text not in seen:
                seen.add(text)
                out.append((template.name, template.language, text))
    return out


# ---- copies of one fill ----

COPY_KINDS = ("typo", "rewrap", "reencode", "punct_width", "resave")
TO_FULL = str.maketrans(",.!?:;()", "，。！？：；（）")
TO_HALF = str.maketrans("，。！？：；（）【】“”", ',.!?:;()[]""')


def rewrap(text: str, rng: random.Random) -> str:
    """Lines broken again at 20-40 characters (Chinese) or after 8-14 words (English), as a mail client or a
    copy from a narrow window leaves them."""
    out = []
    for line in text.split("\n"):
        if not line.strip():
            out.append(line)
        elif re.search("[\u4e00-\u9fff]", line):
            width = rng.randint(20, 40)
            out += [line[k : k + width] for k in range(0, len(line), width)]
        else:
            words, width = line.split(" "), rng.randint(8, 14)
            out += [" ".join(words[k : k + width]) for k in range(0, len(words), width)]
    return "\n".join(out)


def copy_of(text: str, language: str, rng: random.Random, kind: str) -> tuple[str, str]:
    """A copy of one fill (`kind` one of COPY_KINDS) and the encoding to save it in."""
    if kind == "typo":  # one character mistyped
        return tf.typos(text, rng, 1), "utf-8"
    if kind == "rewrap":
        return rewrap(text, rng), "utf-8"
    if kind == "reencode":  # saved again: GB18030 for Chinese, UTF-16 with its BOM for English
        return text, "gb18030" if language == "zh" else "utf-16"
    if kind == "punct_width":
        return text.translate(TO_FULL if language == "en" or rng.random() < 0.5 else TO_HALF), "utf-8"
    if kind == "resave":  # Windows line ends, a trailing blank line
        return text.replace("\n", "\r\n").rstrip() + "\r\n\r\n", "utf-8"
    raise ValueError(f"kind must be one of {', '.join(COPY_KINDS)}, not {kind!r}")
