<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>DiffController</name>
    <message>
        <location filename="../../gui/diff_controller.py" line="100" />
        <source>Cannot compare: %1</source>
        <translation>无法比较：%1</translation>
    </message>
</context>
<context>
    <name>DiffView</name>
    <message>
        <location filename="../../gui/diff_view.py" line="456" />
        <source>◀ Previous change</source>
        <translation>◀ 上一处改动</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="457" />
        <source>Next change ▶</source>
        <translation>下一处改动 ▶</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="458" />
        <source>Previous change (P)</source>
        <translation>上一处改动 (P)</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="459" />
        <source>Next change (N)</source>
        <translation>下一处改动 (N)</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="460" />
        <source>As normalised</source>
        <translation>按规范化比较</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="463" />
        <source>On: compare the texts as the similarity does (line wrapping, spaces, full/half-width forms and boilerplate lines are not changes). Off: compare the raw lines.</source>
        <translation>打开：按相似度的方式比较文本（换行、空格、全角/半角和套话行都不算改动）。关闭：比较原始行。</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="467" />
        <source>Reference text</source>
        <translation>参照文本</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="468" />
        <source>Candidate text</source>
        <translation>对比文本</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="469" />
        <source>The first document of the pair, with its changes highlighted</source>
        <translation>两个文档中的第一个，改动处高亮显示</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="470" />
        <source>The second document of the pair, with its changes highlighted</source>
        <translation>两个文档中的第二个，改动处高亮显示</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="471" />
        <source>Comparison summary</source>
        <translation>比较摘要</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="472" />
        <source>Compare as normalised</source>
        <translation>按规范化比较</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="474" />
        <location filename="../../gui/diff_view.py" line="496" />
        <source>[boilerplate] </source>
        <translation>[套话] </translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="487" />
        <source>Select a group, or two members, to compare them side by side.</source>
        <translation>选择一个组，或组中的两个文档，即可并排比较。</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="574" />
        <source>Reference: %1</source>
        <translation>参照：%1</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="575" />
        <source>Candidate: %1</source>
        <translation>对比：%1</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="503" />
        <location filename="../../gui/diff_view.py" line="526" />
        <source>Comparing…</source>
        <translation>正在比较…</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="611" />
        <source>1 change</source>
        <translation>1 处改动</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="611" />
        <source>%1 changes</source>
        <translation>%1 处改动</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="631" />
        <source>All of the right text is in the left one; it is %1 of its length</source>
        <translation>右侧文本全部包含在左侧文本中，长度为左侧的 %1</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="635" />
        <source>All of the left text is in the right one; it is %1 of its length</source>
        <translation>左侧文本全部包含在右侧文本中，长度为右侧的 %1</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="637" />
        <source>Similarity %1</source>
        <translation>相似度 %1</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="614" />
        <source> · change %1 of %2</source>
        <translation> · 第 %1 处，共 %2 处</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="616" />
        <source> · boilerplate lines greyed: %1</source>
        <translation> · 灰色显示的套话行：%1</translation>
    </message>
    <message>
        <location filename="../../gui/diff_view.py" line="618" />
        <source> · long text: some changed lines are marked whole</source>
        <translation> · 长文本：部分改动行整行标出</translation>
    </message>
</context>
<context>
    <name>GroupsModel</name>
    <message>
        <location filename="../../gui/groups_model.py" line="345" />
        <source>The file name, then its folder; a group row names its first document</source>
        <translation>先文件名，后所在文件夹；组行显示组中第一个文档</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="443" />
        <source>The size of the file, or of the whole group</source>
        <translation>文件大小，或整个组的大小</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="359" />
        <source>How much of the text the document shares with the group's first document, checked character by character (the figure the comparison shows)</source>
        <translation>该文档与组中第一个文档逐字比较后共有的文字比例（与比较视图显示的数字相同）</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="430" />
        <source>How many documents the group holds; in brackets, how many of them have an identical copy in the group (the members list shows each set of identical copies as one row, 'N identical copies')</source>
        <translation>组中的文档数；括号内是其中在组内有完全相同副本的文档数（成员列表把每一组完全相同的副本显示为一行“N 份完全相同的副本”）</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="451" />
        <source>Bits apart</source>
        <translation>相差位数</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="452" />
        <source>Fingerprint bits (of 64) that differ from the group's first document (advanced); checked groups reach further apart on long texts, so this is not the slider's scale</source>
        <translation>与组中第一个文档指纹不同的位数（共 64 位，高级）；核对过的组在长文本上可以相差更多，所以这不是滑块的刻度</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="466" />
        <source>When the file was last modified</source>
        <translation>文件最后修改的时间</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="475" />
        <source>The text encoding the file was read in</source>
        <translation>读取文件所用的文本编码</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="344" />
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="429" />
        <source>Members</source>
        <translation>成员</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="442" />
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="358" />
        <source>Similarity</source>
        <translation>相似度</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="465" />
        <source>Modified</source>
        <translation>修改时间</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="474" />
        <source>Encoding</source>
        <translation>编码</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="372" />
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="348" />
        <source>Group %1: %2</source>
        <translation>第 %1 组：%2</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="154" />
        <source>The date written in the text</source>
        <translation>正文中写明的日期</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="155" />
        <source>No date in the text: the file's modification date</source>
        <translation>正文中没有日期：这是文件的修改日期</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="168" />
        <source>%1 inside</source>
        <translation>%1 个被包含</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="178" />
        <source>%1 (%2 identical)</source>
        <translation>%1（%2 份相同）</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="184" />
        <source>inside · %1</source>
        <translation>被包含 · %1</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="197" />
        <source>All of this document is in %1; it is %2 of that document's length</source>
        <translation>本文档全部包含在 %1 中，长度为该文档的 %2</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="205" />
        <source>Similarity of the texts, checked character by character: %1. %2 of this document's text is in %3, %4 of that one's is in this one</source>
        <translation>逐字核对的文本相似度：%1。本文档 %2 的文本在 %3 中，该文档 %4 的文本在本文档中</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="222" />
        <source>identical</source>
        <translation>完全相同</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="224" />
        <source>similar</source>
        <translation>近似</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="225" />
        <source>, %1 kept</source>
        <translation>，保留 %1 份</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="234" />
        <source>keep</source>
        <translation>保留</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="236" />
        <source>to trash</source>
        <translation>移入废纸篓</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="238" />
        <location filename="../../gui/groups_model.py" line="974" />
        <source>representative</source>
        <translation>代表</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="241" />
        <source>goes: same as one staying</source>
        <translation>移除：与一个保留的文档相同</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="244" />
        <source>goes: %1 in kept</source>
        <translation>移除：%1 在保留的副本中</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="246" />
        <source>goes</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="249" />
        <source>stays: not seen</source>
        <translation>保留：未看过</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="251" />
        <source>stays: a passage</source>
        <translation>保留：只是片段</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="253" />
        <source>stays: a word differs (%1 in kept)</source>
        <translation>保留：有一个词不同（%1 在保留的副本中）</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="255" />
        <source>stays: %1 in kept</source>
        <translation>保留：仅 %1 在保留的副本中</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="257" />
        <source>stays: no copy</source>
        <translation>保留：不是副本</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="269" />
        <source>You sent this copy to the trash</source>
        <translation>你已把这份副本加入待删除</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="273" />
        <source>Goes to the trash: %1 of its text is in %2, the copy kept</source>
        <translation>移到废纸篓：它 %1 的文本在保留的副本 %2 中</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="278" />
        <source>Goes to the trash: a copy of %1, the copy kept</source>
        <translation>移到废纸篓：是保留的副本 %1 的副本</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="282" />
        <source>Goes to the trash: the same words as %1, which stays (it differs from the copy kept)</source>
        <translation>移到废纸篓：与 %1 的文字相同，而 %1 会保留（它与保留的副本不同）</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="288" />
        <source>Stays: it joined the group, or changed, after the copy to keep was marked. Mark it to decide it</source>
        <translation>保留：它在标记要保留的副本之后才加入该组或有改动。请标记它以作决定</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="294" />
        <source>Stays: a short text that differs from %1, the copy kept, in a word (%2 of its text is in it): it may be another saying, not a copy</source>
        <translation>保留：这是一段短文本，与保留的副本 %1 有一个词不同（它的文本有 %2 在其中）：可能是另一句话，而不是副本</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="304" />
        <source>Stays: its text is in %1, the copy kept, but it is only %2 of that text: a passage of it, not a copy</source>
        <translation>保留：它的文本在保留的副本 %1 中，但只占该文本的 %2：是其中的片段，而不是副本</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="313" />
        <source>Stays: only %1 of its text is in %2, the copy kept (a copy goes only when the copy kept holds its text)</source>
        <translation>保留：它只有 %1 的文本在保留的副本 %2 中（只有当保留的副本包含其文本时，副本才会被移除）</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="321" />
        <source>Stays: no copy kept holds its text</source>
        <translation>保留：没有保留的副本包含它的文本</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="373" />
        <source>What a clean-up does with the copy: keep; goes to the trash, because the copy kept holds its text (the share in kept); stays, and why</source>
        <translation>清理时如何处理这份副本：保留；移到废纸篓（因为保留的副本包含它的文本，并显示所占比例）；或保留及其原因</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="386" />
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="387" />
        <source>The document's first meaningful line (a web page's own title), not a repost notice or a byline; a group row shows its first document's</source>
        <translation>文档第一行有意义的文字（网页取其自身标题），不取转载声明或署名行；组行显示组中第一个文档的标题</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="401" />
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="402" />
        <source>The date written in the text; in italics, the file's modification date (the text carries none)</source>
        <translation>正文中写明的日期；斜体表示文件的修改日期（正文中没有日期）</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="414" />
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="415" />
        <source>Where the text says it comes from (来源, 转载, Source…), else the repost notice it shares with many documents</source>
        <translation>正文注明的出处（来源、转载、Source…），否则取它与许多文档共有的转载声明</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="748" />
        <source>keep %1</source>
        <translation>保留 %1</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="749" />
        <source>%1 to trash</source>
        <translation>%1 份待删</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="750" />
        <source>%1 go</source>
        <translation>%1 份移除</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="751" />
        <source>%1 stay</source>
        <translation>%1 份留下</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="756" />
        <source>%1 files with the same text. A mark on this row (keep, trash) marks its first file, %2; keeping one file of the class sends its identical copies to the trash at the clean-up. Double-click or press Right to list the files, Left to fold them</source>
        <translation>%1 个文件内容完全相同。在这一行上做的标记（保留、删除）标在它的第一个文件 %2 上；保留其中任一文件，清理时其余相同副本移入回收站。双击或按右方向键列出这些文件，按左方向键收起</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="967" />
        <source>%1 identical copies</source>
        <translation>%1 份完全相同的副本</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="216" />
        <source>Similarity of the texts, checked character by character</source>
        <translation>逐字核对得到的文本相似度</translation>
    </message>
    <message>
        <location filename="../../gui/groups_model.py" line="193" />
        <source>Share of the 64 fingerprint bits that agree (approximate)</source>
        <translation>64 位指纹中相同位的比例（近似值）</translation>
    </message>
</context>
<context>
    <name>HeadlineReader</name>
    <message>
        <location filename="../../gui/headline_reader.py" line="130" />
        <source>Searching every text: %1 of %2 read so far…</source>
        <translation>正在搜索全部正文：已读取 %1 / %2…</translation>
    </message>
</context>
<context>
    <name>Histogram</name>
    <message>
        <location filename="../../gui/threshold_bar.py" line="45" />
        <source>%1 bits: %2 pairs</source>
        <translation>%1 位：%2 对</translation>
    </message>
    <message>
        <location filename="../../gui/threshold_bar.py" line="45" />
        <source>%1/%3: %2 pairs</source>
        <translation>%1/%3：%2 对</translation>
    </message>
</context>
<context>
    <name>KeepRulesDialog</name>
    <message>
        <location filename="../../gui/rules_dialog.py" line="39" />
        <source>Keep by rules</source>
        <translation>按规则保留</translation>
    </message>
    <message>
        <location filename="../../gui/rules_dialog.py" line="42" />
        <source>In each group, the first criterion chooses the copy to keep; each next one decides between the copies the ones before leave tied.</source>
        <translation>在每个组中，第一个条件决定保留哪个副本；后面的每个条件在前面条件打平的副本之间再作选择。</translation>
    </message>
    <message>
        <location filename="../../gui/rules_dialog.py" line="50" />
        <location filename="../../gui/rules_dialog.py" line="88" />
        <source>Criteria</source>
        <translation>条件</translation>
    </message>
    <message>
        <location filename="../../gui/rules_dialog.py" line="57" />
        <source>Criteria in order</source>
        <translation>按顺序排列的条件</translation>
    </message>
    <message>
        <location filename="../../gui/rules_dialog.py" line="58" />
        <source>Add →</source>
        <translation>添加 →</translation>
    </message>
    <message>
        <location filename="../../gui/rules_dialog.py" line="59" />
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../gui/rules_dialog.py" line="60" />
        <source>Up</source>
        <translation>上移</translation>
    </message>
    <message>
        <location filename="../../gui/rules_dialog.py" line="61" />
        <source>Down</source>
        <translation>下移</translation>
    </message>
    <message>
        <location filename="../../gui/rules_dialog.py" line="66" />
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../../gui/rules_dialog.py" line="68" />
        <source>Reference folder: keep only a copy under this folder, and leave alone the groups with none there</source>
        <translation>参照文件夹：只保留此文件夹下的副本，组内没有时整组不动</translation>
    </message>
    <message>
        <location filename="../../gui/rules_dialog.py" line="89" />
        <source>In this order</source>
        <translation>依次为</translation>
    </message>
    <message>
        <location filename="../../gui/rules_dialog.py" line="94" />
        <source>Folder:</source>
        <translation>文件夹：</translation>
    </message>
    <message>
        <location filename="../../gui/rules_dialog.py" line="122" />
        <source>Oldest (modification time)</source>
        <translation>最早（修改时间）</translation>
    </message>
    <message>
        <location filename="../../gui/rules_dialog.py" line="123" />
        <source>Newest (modification time)</source>
        <translation>最新（修改时间）</translation>
    </message>
    <message>
        <location filename="../../gui/rules_dialog.py" line="124" />
        <source>Largest</source>
        <translation>最大</translation>
    </message>
    <message>
        <location filename="../../gui/rules_dialog.py" line="125" />
        <source>Shortest path</source>
        <translation>路径最短</translation>
    </message>
    <message>
        <location filename="../../gui/rules_dialog.py" line="126" />
        <source>In the folder below</source>
        <translation>位于下面的文件夹</translation>
    </message>
    <message>
        <location filename="../../gui/rules_dialog.py" line="130" />
        <source>In folder %1</source>
        <translation>位于文件夹 %1</translation>
    </message>
    <message>
        <location filename="../../gui/rules_dialog.py" line="182" />
        <source>On the command line: simdesk clean FOLDER %1</source>
        <translation>命令行：simdesk clean 文件夹 %1</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../gui/main_window.py" line="218" />
        <source>Open a folder of documents</source>
        <translation>打开文档文件夹</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="174" />
        <source>simdesk — near-duplicate documents</source>
        <translation>simdesk — 近似重复文档</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="175" />
        <source>simdesk — %1</source>
        <translation>simdesk — %1</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="277" />
        <source>The scan failed: %1</source>
        <translation>扫描失败：%1</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="281" />
        <source>The scan failed</source>
        <translation>扫描失败</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="352" />
        <source>Sorted on the titles, dates and sources read so far: the groups not read yet come last, and the list is sorted again once every one is read</source>
        <translation>已按目前读到的标题、日期和来源排序：尚未读取的组排在最后，全部读完后列表会重新排序</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="306" />
        <source>The index was updated</source>
        <translation>索引已更新</translation>
    </message>
</context>
<context>
    <name>ManualDialog</name>
    <message>
        <location filename="../../gui/manual.py" line="23" />
        <location filename="../../gui/manual.py" line="25" />
        <source>simdesk manual</source>
        <translation>simdesk 使用说明</translation>
    </message>
</context>
<context>
    <name>ProblemsModel</name>
    <message>
        <location filename="../../gui/problems_model.py" line="30" />
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../gui/problems_model.py" line="30" />
        <source>Problem</source>
        <translation>问题</translation>
    </message>
</context>
<context>
    <name>ReviewActions</name>
    <message>
        <location filename="../../gui/review_actions.py" line="82" />
        <source>The last change of marks was undone</source>
        <translation>已撤销上次对标记的更改</translation>
    </message>
    <message>
        <location filename="../../gui/review_actions.py" line="84" />
        <source>No change of marks to undo</source>
        <translation>没有可撤销的标记更改</translation>
    </message>
    <message>
        <location filename="../../gui/review_actions.py" line="122" />
        <source>Every group shown is decided</source>
        <translation>显示的每个组都已决定</translation>
    </message>
    <message>
        <location filename="../../gui/review_actions.py" line="173" />
        <source>Applies to every group (%1)</source>
        <translation>作用于所有组（%1 个）</translation>
    </message>
    <message>
        <location filename="../../gui/review_actions.py" line="175" />
        <source>Applies to the %1 selected groups</source>
        <translation>作用于选中的 %1 个组</translation>
    </message>
    <message>
        <location filename="../../gui/review_actions.py" line="177" />
        <source>Applies to the 1 group the filter shows</source>
        <translation>作用于筛选后显示的 1 个组</translation>
    </message>
    <message>
        <location filename="../../gui/review_actions.py" line="178" />
        <source>Applies to the %1 groups the filter shows</source>
        <translation>作用于筛选后显示的 %1 个组</translation>
    </message>
    <message>
        <location filename="../../gui/review_actions.py" line="186" />
        <source>%1 and %2 will not be grouped together again</source>
        <translation>%1 和 %2 以后不会再分到同一组</translation>
    </message>
    <message>
        <location filename="../../gui/review_actions.py" line="193" />
        <source>Could not save the decision: %1</source>
        <translation>无法保存这个决定：%1</translation>
    </message>
    <message>
        <location filename="../../gui/review_actions.py" line="200" />
        <source>Move the duplicates to…</source>
        <translation>把重复文档移到…</translation>
    </message>
    <message>
        <location filename="../../gui/review_actions.py" line="228" />
        <source>Cleaning up…</source>
        <translation>正在清理…</translation>
    </message>
    <message>
        <location filename="../../gui/review_actions.py" line="242" />
        <source>Clean-up failed</source>
        <translation>清理失败</translation>
    </message>
    <message>
        <location filename="../../gui/review_actions.py" line="259" />
        <source>Export groups</source>
        <translation>导出分组</translation>
    </message>
    <message>
        <location filename="../../gui/review_actions.py" line="270" />
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location filename="../../gui/review_actions.py" line="274" />
        <source>Exported to %1</source>
        <translation>已导出到 %1</translation>
    </message>
</context>
<context>
    <name>ReviewCounter</name>
    <message>
        <location filename="../../gui/review_counter.py" line="71" />
        <source>Reviewed %1 of %2 groups</source>
        <translation>已审阅 %1 / %2 组</translation>
    </message>
    <message>
        <location filename="../../gui/review_counter.py" line="79" />
        <source>Groups in which every copy is kept, queued for the trash, or was shown beside a copy marked to keep; counted from the decisions the index keeps, so the count is back when the review resumes</source>
        <translation>组中每个副本都已保留、已放入待删除队列，或曾与标为保留的副本一起显示过，即为已审阅；按索引中保存的决定计算，继续审阅时照样显示</translation>
    </message>
</context>
<context>
    <name>ReviewPage</name>
    <message>
        <location filename="../../gui/window_pages.py" line="193" />
        <source>Problems (%1)</source>
        <translation>问题 (%1)</translation>
    </message>
    <message>
        <location filename="../../gui/window_pages.py" line="197" />
        <source>Filter by path, title or text</source>
        <translation>按路径、标题或正文筛选</translation>
    </message>
    <message>
        <location filename="../../gui/window_pages.py" line="198" />
        <source>All groups</source>
        <translation>全部组</translation>
    </message>
    <message>
        <location filename="../../gui/window_pages.py" line="198" />
        <source>Undecided groups</source>
        <translation>未决定的组</translation>
    </message>
    <message>
        <location filename="../../gui/window_pages.py" line="198" />
        <source>Decided groups</source>
        <translation>已决定的组</translation>
    </message>
    <message>
        <location filename="../../gui/window_pages.py" line="201" />
        <source>Show every group, or only the groups with copies no decision covers yet, or only the decided ones</source>
        <translation>显示全部组，或只显示还有副本未决定的组，或只显示已决定的组</translation>
    </message>
    <message>
        <location filename="../../gui/window_pages.py" line="203" />
        <source>Groups</source>
        <translation>分组</translation>
    </message>
    <message>
        <location filename="../../gui/window_pages.py" line="213" />
        <source>Similarity threshold</source>
        <translation>相似度阈值</translation>
    </message>
    <message>
        <location filename="../../gui/window_pages.py" line="215" />
        <source>Moves the least similarity a pair needs to be grouped; the groups follow at once</source>
        <translation>调整两个文档归为一组所需的最低相似度；分组随即更新</translation>
    </message>
    <message>
        <location filename="../../gui/window_pages.py" line="217" />
        <source>Filter groups</source>
        <translation>筛选分组</translation>
    </message>
    <message>
        <location filename="../../gui/window_pages.py" line="218" />
        <location filename="../../gui/window_pages.py" line="220" />
        <source>Decided or undecided groups</source>
        <translation>已决定或未决定的组</translation>
    </message>
    <message>
        <location filename="../../gui/window_pages.py" line="219" />
        <source>S&amp;how:</source>
        <translation>显示(&amp;H)：</translation>
    </message>
    <message>
        <location filename="../../gui/window_pages.py" line="221" />
        <source>Groups of similar documents</source>
        <translation>相似文档的分组</translation>
    </message>
    <message>
        <location filename="../../gui/window_pages.py" line="223" />
        <source>One row per group; its documents are listed below. A rule keeps one copy in each selected group</source>
        <translation>每行一个组，其文档列在下方。规则会在每个选中的组中保留一份副本</translation>
    </message>
    <message>
        <location filename="../../gui/window_pages.py" line="225" />
        <source>Documents of the current group</source>
        <translation>当前组的文档</translation>
    </message>
    <message>
        <location filename="../../gui/window_pages.py" line="227" />
        <source>Space keeps the selected copies, Delete queues them for the trash</source>
        <translation>空格保留选中的副本，Delete 把它们放入待删除队列</translation>
    </message>
    <message>
        <location filename="../../gui/window_pages.py" line="229" />
        <source>Files that could not be read</source>
        <translation>无法读取的文件</translation>
    </message>
    <message>
        <location filename="../../gui/window_pages.py" line="230" />
        <source>Side-by-side comparison</source>
        <translation>并排比较</translation>
    </message>
</context>
<context>
    <name>ScanProgress</name>
    <message>
        <location filename="../../gui/scan_progress.py" line="38" />
        <source>Opening the index…</source>
        <translation>正在打开索引…</translation>
    </message>
    <message>
        <location filename="../../gui/scan_progress.py" line="42" />
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location filename="../../gui/scan_progress.py" line="55" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../gui/settings_dialog.py" line="27" />
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../gui/settings_dialog.py" line="29" />
        <source>File name patterns to index, separated by spaces, e.g. *.txt *.md</source>
        <translation>要索引的文件名模式，用空格分隔，例如 *.txt *.md</translation>
    </message>
    <message>
        <location filename="../../gui/settings_dialog.py" line="39" />
        <source>Without verification: bits of Hamming distance. With verification: the distance scaled to the length of the texts (%1: every checked candidate).</source>
        <translation>不核对时：汉明距离（位）。核对时：按文本长度折算的距离（%1 表示所有已核对的候选）。</translation>
    </message>
    <message>
        <location filename="../../gui/settings_dialog.py" line="45" />
        <source>the engine's default</source>
        <translation>引擎默认值</translation>
    </message>
    <message>
        <location filename="../../gui/settings_dialog.py" line="47" />
        <source>Check each candidate pair on its text</source>
        <translation>逐对核对候选文本</translation>
    </message>
    <message>
        <location filename="../../gui/settings_dialog.py" line="55" />
        <source>one per core</source>
        <translation>每核一个</translation>
    </message>
    <message>
        <location filename="../../gui/settings_dialog.py" line="58" />
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../gui/settings_dialog.py" line="63" />
        <source>File patterns</source>
        <translation>文件模式</translation>
    </message>
    <message>
        <location filename="../../gui/settings_dialog.py" line="64" />
        <source>Skip files larger than</source>
        <translation>跳过大于此值的文件</translation>
    </message>
    <message>
        <location filename="../../gui/settings_dialog.py" line="65" />
        <source>Default threshold</source>
        <translation>默认阈值</translation>
    </message>
    <message>
        <location filename="../../gui/settings_dialog.py" line="66" />
        <source>Verification</source>
        <translation>核对</translation>
    </message>
    <message>
        <location filename="../../gui/settings_dialog.py" line="67" />
        <source>Least similarity of the texts</source>
        <translation>文本最低相似度</translation>
    </message>
    <message>
        <location filename="../../gui/settings_dialog.py" line="68" />
        <source>Worker processes</source>
        <translation>工作进程数</translation>
    </message>
    <message>
        <location filename="../../gui/settings_dialog.py" line="69" />
        <source>Language</source>
        <translation>语言</translation>
    </message>
</context>
<context>
    <name>ThresholdBar</name>
    <message>
        <location filename="../../gui/threshold_bar.py" line="105" />
        <source>Threshold</source>
        <translation>阈值</translation>
    </message>
    <message>
        <location filename="../../gui/threshold_bar.py" line="108" />
        <source>Largest Hamming distance between near-duplicates (bits of 64)</source>
        <translation>近似重复之间允许的最大汉明距离（64 位中的位数）</translation>
    </message>
    <message>
        <location filename="../../gui/threshold_bar.py" line="113" />
        <source>Every pair shown is at least %1% similar on its text. The slider limits how far apart their fingerprints may be, scaled to the length of the texts: %2 takes every checked candidate.</source>
        <translation>显示的每一对文字相似度至少为 %1%。滑块限制两者指纹的差距（按文本长度折算）：%2 表示所有已核对的候选。</translation>
    </message>
    <message>
        <location filename="../../gui/threshold_bar.py" line="153" />
        <source>%1 groups · %2 documents in groups · %3 redundant copies · %4 documents indexed</source>
        <translation>%1 组 · 组内文档 %2 个 · 多余副本 %3 份 · 已索引 %4 个文档</translation>
    </message>
    <message>
        <location filename="../../gui/threshold_bar.py" line="160" />
        <source>%1 of %2 groups shown by the filter</source>
        <translation>筛选显示 %2 个组中的 %1 个</translation>
    </message>
    <message>
        <location filename="../../gui/threshold_bar.py" line="163" />
        <source>Each pair checked on its text: at least %1% alike</source>
        <translation>每一对都核对过文本：相似度至少 %1%</translation>
    </message>
    <message>
        <location filename="../../gui/threshold_bar.py" line="186" />
        <source>≤ %1 bits (~%2% similar)</source>
        <translation>≤ %1 位（约 %2% 相似）</translation>
    </message>
    <message>
        <location filename="../../gui/threshold_bar.py" line="190" />
        <source>≥ %1% similar · reach %2/%3</source>
        <translation>≥ %1% 相似 · 范围 %2/%3</translation>
    </message>
</context>
<context>
    <name>WelcomePage</name>
    <message>
        <location filename="../../gui/window_pages.py" line="86" />
        <source>Find near-duplicate documents</source>
        <translation>查找近似重复的文档</translation>
    </message>
    <message>
        <location filename="../../gui/window_pages.py" line="89" />
        <source>Open a folder of text documents (or drop it on this window). simdesk indexes it, groups the documents that are nearly the same, and lets you compare them side by side and clean up safely.</source>
        <translation>打开一个文本文档文件夹（或把它拖到本窗口）。simdesk 会为它建立索引，把几乎相同的文档分组，让你并排比较并安全地清理。</translation>
    </message>
    <message>
        <location filename="../../gui/window_pages.py" line="93" />
        <source>Open the demo collection</source>
        <translation>打开示例文集</translation>
    </message>
    <message>
        <location filename="../../gui/window_pages.py" line="94" />
        <source>Open a folder…</source>
        <translation>打开文件夹…</translation>
    </message>
    <message>
        <location filename="../../gui/window_pages.py" line="95" />
        <source>Recent folders</source>
        <translation>最近的文件夹</translation>
    </message>
</context>
<context>
    <name>WindowMenus</name>
    <message>
        <location filename="../../gui/window_menus.py" line="140" />
        <source>&amp;Open folder…</source>
        <translation>打开文件夹(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="141" />
        <source>Open the &amp;demo collection</source>
        <translation>打开示例文集(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="142" />
        <source>&amp;Rescan</source>
        <translation>重新扫描(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="143" />
        <source>&amp;Cancel scan</source>
        <translation>取消扫描(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="144" />
        <source>Export groups as &amp;JSON…</source>
        <translation>导出分组为 &amp;JSON…</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="145" />
        <source>Export groups as C&amp;SV…</source>
        <translation>导出分组为 C&amp;SV…</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="146" />
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="147" />
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="148" />
        <source>&amp;Keep this copy</source>
        <translation>保留这一份(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="149" />
        <source>&amp;Queue for the trash</source>
        <translation>加入待删除(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="150" />
        <location filename="../../gui/window_menus.py" line="154" />
        <source>Keep the &amp;oldest</source>
        <translation>保留最早的(&amp;O)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="151" />
        <location filename="../../gui/window_menus.py" line="155" />
        <source>Keep the &amp;newest</source>
        <translation>保留最新的(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="152" />
        <location filename="../../gui/window_menus.py" line="156" />
        <source>Keep the &amp;largest</source>
        <translation>保留最大的(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="153" />
        <location filename="../../gui/window_menus.py" line="157" />
        <source>Keep the &amp;shortest path</source>
        <translation>保留路径最短的(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="158" />
        <source>By &amp;rules (criteria in order, reference folder)…</source>
        <translation>按规则(&amp;R)（按顺序的条件、参照文件夹）…</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="159" />
        <source>&amp;Not duplicates</source>
        <translation>不是重复(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="160" />
        <source>Move the others to the &amp;trash…</source>
        <translation>把其余的移到废纸篓(&amp;T)…</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="161" />
        <source>Move the others to a &amp;folder…</source>
        <translation>把其余的移到文件夹(&amp;F)…</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="162" />
        <source>&amp;Undo last clean-up</source>
        <translation>撤销上一次清理(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="163" />
        <source>Undo the last &amp;marks</source>
        <translation>撤销上次标记(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="164" />
        <source>Next &amp;undecided group</source>
        <translation>下一个未决定的组(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="165" />
        <source>&amp;Open in the default application</source>
        <translation>用默认程序打开(&amp;O)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="166" />
        <source>&amp;Reveal in the file manager</source>
        <translation>在文件管理器中显示(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="167" />
        <source>&amp;Copy path</source>
        <translation>复制路径(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="168" />
        <source>List the identical copies</source>
        <translation>列出完全相同的副本</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="169" />
        <source>Fold the identical copies</source>
        <translation>收起完全相同的副本</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="170" />
        <source>&amp;Next change</source>
        <translation>下一处改动(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="171" />
        <source>&amp;Previous change</source>
        <translation>上一处改动(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="172" />
        <source>&amp;Filter by path, title or text</source>
        <translation>按路径、标题或正文筛选(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="173" />
        <source>&amp;About simdesk</source>
        <translation>关于 simdesk(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="174" />
        <source>simdesk &amp;manual</source>
        <translation>simdesk 使用说明(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="178" />
        <source>The two selected documents never group together again</source>
        <translation>选中的两个文档以后不再分到同一组</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="179" />
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="180" />
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="181" />
        <source>&amp;Review</source>
        <translation>审阅(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="182" />
        <source>Keep in this group</source>
        <translation>本组保留规则</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="184" />
        <source>&amp;Document</source>
        <translation>文档(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="185" />
        <source>&amp;View</source>
        <translation>查看(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="186" />
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="191" />
        <source>Keep one in %1</source>
        <translation>在%1中各保留一份</translation>
    </message>
    <message>
        <location filename="../../gui/window_menus.py" line="285" />
        <source>About simdesk</source>
        <translation>关于 simdesk</translation>
    </message>
</context>
<context>
    <name>WindowMessages</name>
    <message>
        <location filename="../../gui/messages.py" line="43" />
        <source>Waiting for another scan of this folder to end…</source>
        <translation>正在等待这个文件夹的另一次扫描结束…</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="45" />
        <source>Listing files… %1 found</source>
        <translation>正在列出文件… 已找到 %1 个</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="33" />
        <source>about %1 left</source>
        <translation>约剩 %1</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="38" />
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="39" />
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="47" />
        <source>%1 / %2 files · %3 files/s</source>
        <translation>%1 / %2 个文件 · 每秒 %3 个</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="58" />
        <source>Grouping…</source>
        <translation>正在分组…</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="65" />
        <source>Scan cancelled: %1 documents indexed so far are kept</source>
        <translation>扫描已取消：已索引的 %1 个文档均已保存</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="67" />
        <source>Scanned %1 files in %2 s: %3 new, %4 changed, %5 deleted, %6 problems</source>
        <translation>用 %2 秒扫描了 %1 个文件：新增 %3，修改 %4，删除 %5，问题 %6</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="78" />
        <source>simdesk finds near-duplicate text documents (Chinese first) with 64-bit SimHash fingerprints kept in a SQLite index, and helps you clean them up safely.</source>
        <translation>simdesk 用保存在 SQLite 索引中的 64 位 SimHash 指纹查找近似重复的文本文档（中文优先），并帮助你安全地清理。</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="118" />
        <source>; in %1 of them some copies stay: the copy kept does not hold them</source>
        <translation>；其中 %1 个组有副本保留：所保留的一份不包含它们</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="145" />
        <source>%1 other copies in these groups are still undecided: they stay where they are.</source>
        <translation>这些组中另有 %1 个副本尚未决定：它们留在原处。</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="150" />
        <source>%1 groups are left alone because every copy in them is queued: mark one copy to keep.</source>
        <translation>有 %1 个组未作处理，因为组内每一份都被加入了待删除：请标记一份保留。</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="157" />
        <source>Clean up</source>
        <translation>清理</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="53" />
        <source>Checking %1 candidate pairs on their texts: %2%</source>
        <translation>正在逐一核对 %1 对候选文本：%2%</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="55" />
        <source>Checking the candidate pairs on their texts: %1%</source>
        <translation>正在逐一核对候选文本对：%1%</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="99" />
        <source>the %1 selected groups</source>
        <translation>选中的 %1 个组</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="102" />
        <source>the 1 group the filter shows</source>
        <translation>筛选后显示的 1 个组</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="104" />
        <source>the %1 groups the filter shows</source>
        <translation>筛选后显示的 %1 个组</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="106" />
        <source>the only group</source>
        <translation>唯一的组</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="106" />
        <source>all %1 groups</source>
        <translation>全部 %1 个组</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="112" />
        <source>One copy marked to keep in 1 group</source>
        <translation>已在 1 个组中标记保留一份</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="114" />
        <source>One copy marked to keep in each of %1 groups</source>
        <translation>已在 %1 个组中各标记保留一份</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="116" />
        <source> (of %1)</source>
        <translation>（范围：%1）</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="121" />
        <source>; 1 group left alone (no copy in the reference folder)</source>
        <translation>；1 个组未处理（参照文件夹中没有副本）</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="123" />
        <source>; %1 groups left alone (no copy in the reference folder)</source>
        <translation>；%1 个组未改动（参照文件夹中没有副本）</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="128" />
        <source>1 file</source>
        <translation>1 个文件</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="128" />
        <source>%1 files</source>
        <translation>%1 个文件</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="163" />
        <source>Nothing to remove in %1. Mark the copy to keep in a group (Space) and the others go, or queue single copies (Delete).</source>
        <translation>%1中没有要移除的文件。在组中标记要保留的副本（空格键），其余副本即会移除；也可以把单个副本加入待删队列（Delete 键）。</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="173" />
        <source>Move %1 (%2) from %3 to the trash?</source>
        <translation>把%3中的 %1（%2）移到废纸篓？</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="175" />
        <source>Move %1 (%2) from %3 to %4?</source>
        <translation>把%3中的 %1（%2）移到 %4？</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="182" />
        <source>Each file is checked to be unchanged since the scan first; changed files are skipped.</source>
        <translation>每个文件都会先核对自扫描以来没有改动；改动过的文件会跳过。</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="192" />
        <source>%1 files sent to the trash (%2).</source>
        <translation>%1 个文件已移到废纸篓（%2）。</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="192" />
        <source>%1 files moved (%2).</source>
        <translation>已移动 %1 个文件（%2）。</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="196" />
        <source>%1 skipped.</source>
        <translation>跳过 %1 个。</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="198" />
        <source>%1 failed.</source>
        <translation>失败 %1 个。</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="206" />
        <source>Clean-up finished</source>
        <translation>清理完成</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="213" />
        <source>Nothing to undo.</source>
        <translation>没有可撤销的清理。</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="216" />
        <source>%1 files restored, %2 not restored.</source>
        <translation>已恢复 %1 个文件，%2 个未能恢复。</translation>
    </message>
    <message>
        <location filename="../../gui/messages.py" line="226" />
        <source>Undo last clean-up</source>
        <translation>撤销上一次清理</translation>
    </message>
</context>
<context>
    <name>window</name>
    <message>
        <location filename="../../gui/index_problem.py" line="27" />
        <source>The index is damaged</source>
        <translation>索引已损坏</translation>
    </message>
    <message>
        <location filename="../../gui/index_problem.py" line="31" />
        <source>Rebuild moves the damaged file aside (it is kept beside the new one) and reads the documents again from the folder. Carried over: %1 keep marks, %2 copies queued for the trash, %3 'not duplicates' pairs.</source>
        <translation>重建会把损坏的文件移到一旁（保留在新文件旁边），并从文件夹重新读取文档。沿用：%1 个保留标记、%2 个待移入回收站的副本、%3 对“不是重复”。</translation>
    </message>
    <message>
        <location filename="../../gui/index_problem.py" line="40" />
        <source>Lost with the damage: %1.</source>
        <translation>因损坏而丢失：%1。</translation>
    </message>
    <message>
        <location filename="../../gui/index_problem.py" line="42" />
        <source>Rebuild the index</source>
        <translation>重建索引</translation>
    </message>
    <message>
        <location filename="../../gui/index_problem.py" line="52" />
        <source>The index could not be rebuilt</source>
        <translation>无法重建索引</translation>
    </message>
</context>
</TS>