<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>ApplicantDialog</name>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="229" />
        <source>Set applicant</source>
        <translation>设置申请人</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="234" />
        <source> and {n} more</source>
        <translation> 等另外 {n} 个</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="235" />
        <source>Applicants of {files}</source>
        <translation>{files} 的申请人</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="236" />
        <source>not known</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="237" />
        <source>Now: {now}</source>
        <translation>当前：{now}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="241" />
        <source>Names or IDs, several separated by ;</source>
        <translation>姓名或编号，多人以 ; 分隔</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="245" />
        <source>No applicant</source>
        <translation>无申请人</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="246" />
        <source>These files have no applicant: their author field is not used</source>
        <translation>这些文件没有申请人：不使用其作者属性</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="247" />
        <source>Use the files' metadata</source>
        <translation>使用文件属性</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="248" />
        <source>Forget what was set: each file's own author field names its applicant</source>
        <translation>取消已设置的申请人：由各文件自身的作者属性确定申请人</translation>
    </message>
</context>
<context>
    <name>CheckView</name>
    <message>
        <location filename="../../neardup_gui/app/checkview.py" line="168" />
        <source>This file could not be read: {reason}</source>
        <translation>无法读取此文件：{reason}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/checkview.py" line="172" />
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/checkview.py" line="174" />
        <source>&lt;b&gt;Copied {copied}&lt;/b&gt; &amp;nbsp;·&amp;nbsp; copied without quotations {nq} &amp;nbsp;·&amp;nbsp; largest single source {largest_ratio} ({largest}) &amp;nbsp;·&amp;nbsp; {found}&lt;br&gt;Units counted: {units}; not counted: template text {template}, excluded (quotations, bibliography) {excluded}</source>
        <translation>&lt;b&gt;总文字复制比 {copied}&lt;/b&gt; &amp;nbsp;·&amp;nbsp; 去除引用文献复制比 {nq} &amp;nbsp;·&amp;nbsp; 单篇最大文字复制比 {largest_ratio}（{largest}）&amp;nbsp;·&amp;nbsp; {found}&lt;br&gt;计入字数：{units}；未计入：模板文字 {template}，排除文字（引文、参考文献）{excluded}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/checkview.py" line="202" />
        <source>Read with warnings: {warnings}</source>
        <translation>读取时有警告：{warnings}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/checkview.py" line="208" />
        <source>Integrity flags:</source>
        <translation>文本异常标记：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/checkview.py" line="209" />
        <source>Compared as a reader sees the text: look-alike letters and traditional characters folded, invisible characters and hidden text left out of every figure.</source>
        <translation>比对按读者所见的文字进行：形近字母和繁体字已归一，不可见字符和隐藏文字不计入任何数值。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/checkview.py" line="218" />
        <source>%n of them hidden: they still count in the figures above</source>
        <translation>
            <numerusform>其中 %n 个已隐藏：仍计入上方各项比例</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/checkview.py" line="219" />
        <source>none hidden</source>
        <translation>没有隐藏的来源</translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/checkview.py" line="223" />
        <source>%n source(s) found</source>
        <translation>
            <numerusform>找到 %n 个来源</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/checkview.py" line="256" />
        <source>Double-click or press Enter to compare side by side</source>
        <translation>双击或按回车键进行对照比较</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/checkview.py" line="257" />
        <source>Submission:</source>
        <translation>送检文档：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/checkview.py" line="258" />
        <source>Checked submission</source>
        <translation>送检文档</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/checkview.py" line="259" />
        <source>Check files…</source>
        <translation>检测文件…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/checkview.py" line="276" />
        <source>Each figure is a share of the submission's countable text; “copied” counts every passage found in any source once. Press F1 for what each figure means.</source>
        <translation>各项比例均为送检文档可计文字中的比例；“总文字复制比”把在任一来源中找到的片段各计一次。按 F1 查看每项比例的含义。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/checkview.py" line="279" />
        <source>Copied: share of the countable text found in any source of the collection.
Copied without quotations: the same, not counting text in quotation marks.
Largest single source: share of the countable text found in the one source that holds the most.
Countable text: every word and character of the submission except template text (the call's form, template files, page headers) and what the settings exclude (quotations, the bibliography).</source>
        <translation>总文字复制比：可计文字中在文献库任一来源中找到的比例。
去除引用文献复制比：同上，但不计引号内的文字。
单篇最大文字复制比：可计文字中在重复最多的那一个来源中找到的比例。
可计文字：送检文档中除模板文字（申报书模板、模板文件、页眉页脚）和设置排除的内容（引文、参考文献）以外的全部文字。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/checkview.py" line="260" />
        <source>Add to collection</source>
        <translation>加入文献库</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/checkview.py" line="255" />
        <source>Sources found</source>
        <translation>找到的来源</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/checkview.py" line="261" />
        <source>Report for the committee…</source>
        <translation>生成检测报告单…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/checkview.py" line="262" />
        <source>This submission's similarity report in the interface's language: figures, sections, sources, the full text coloured by source</source>
        <translation>以界面语言生成本申请书的检测报告单：各项比例、分段结果、来源及按来源着色的全文</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/checkview.py" line="264" />
        <source>Hide sources below</source>
        <translation>隐藏低于此值的来源</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/checkview.py" line="265" />
        <source>Every source holding a passage of at least the minimum match length is listed. Tick to hide the sources whose similarity r and share of the submission are both below this value; they still count in the figures.</source>
        <translation>列出所有含有不短于最小匹配长度片段的来源。勾选后隐藏相似度 r 和占送检文档比例都低于此值的来源；它们仍计入各项比例。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/checkview.py" line="270" />
        <source>Hide sources below this share</source>
        <translation>隐藏低于此比例的来源</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/checkview.py" line="271" />
        <source>Drop one or more files anywhere on this window, or use “Check files…”, to check a submission against the collection.</source>
        <translation>将一个或多个文件拖放到本窗口任意位置，或使用“检测文件…”，即可将送检文档与文献库比对。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/checkview.py" line="273" />
        <source>Make the checked submissions part of the collection: copied into its folder, or kept where they are as external members</source>
        <translation>把已检测的文件加入文献库：复制到文献库文件夹，或保留在原处作为外部成员</translation>
    </message>
</context>
<context>
    <name>ClustersView</name>
    <message>
        <location filename="../../neardup_gui/app/clustersview.py" line="131" />
        <source>Cluster / document</source>
        <translation>聚类 / 文档</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/clustersview.py" line="89" />
        <source>No cluster: no two documents of this collection reach the similarity r threshold ({threshold}). A cluster is a group of near-copies; the Duplicates tab ranks every pair, and Settings (Ctrl+,) sets the threshold.</source>
        <translation>没有聚类：本文献库中没有两篇文档达到相似度 r 阈值（{threshold}）。聚类是一组近似重复的文档；“重复对”标签页列出每一对文档，阈值可在“设置”（Ctrl+,）中调整。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/clustersview.py" line="131" />
        <source>Similarity r to the representative</source>
        <translation>与代表文档的相似度 r</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/clustersview.py" line="135" />
        <source>Ring {i}: {n} near-identical documents, every pair at or above {lowest}</source>
        <translation>团伙 {i}：{n} 篇几乎相同的文档，每一对都不低于 {lowest}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/clustersview.py" line="142" />
        <source>Cluster {i}: {n} documents, around {name}</source>
        <translation>聚类 {i}：{n} 个文档，代表文档 {name}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/clustersview.py" line="150" />
        <source>representative</source>
        <translation>代表文档</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/clustersview.py" line="169" />
        <source>Select a cluster of three or more documents to see every pair.</source>
        <translation>选择一个含三篇或更多文档的聚类，即可查看每一对文档的相似度 r。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/clustersview.py" line="183" />
        <source>below the threshold; not compared: this cluster has more than {n} documents</source>
        <translation>低于阈值；未比对：此聚类的文档多于 {n} 篇</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/clustersview.py" line="194" />
        <source>Ring: every pair of these {n} documents is at or above the threshold</source>
        <translation>团伙：这 {n} 篇文档两两之间都达到阈值</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/clustersview.py" line="195" />
        <source>Every pair of this cluster's {n} documents</source>
        <translation>本聚类 {n} 篇文档两两之间的相似度 r</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/clustersview.py" line="198" />
        <source>Similarity of every pair of the selected cluster</source>
        <translation>所选聚类中每一对文档的相似度 r</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/clustersview.py" line="199" />
        <source>Clusters</source>
        <translation>聚类</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/clustersview.py" line="200" />
        <source>Double-click a member or press Enter to compare it with the representative</source>
        <translation>双击成员或按回车键，与代表文档进行对照比较</translation>
    </message>
</context>
<context>
    <name>CommonView</name>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="148" />
        <source>template file</source>
        <translation>模板文件</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="149" />
        <source>marked by you: not counted</source>
        <translation>您标记的：不计入</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="150" />
        <source>automatic: not counted</source>
        <translation>自动识别：不计入</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="151" />
        <source>counted by your choice</source>
        <translation>按您的选择计入</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="152" />
        <source>counted: its documents copy one another</source>
        <translation>计入：含有它的文档相互抄袭</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="153" />
        <source>counted</source>
        <translation>计入</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="169" />
        <source>Passage</source>
        <translation>段落</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="169" />
        <source>Documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="169" />
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="170" />
        <source>Found in (a few)</source>
        <translation>出现于（部分）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="176" />
        <source>{n} ({share})</source>
        <translation>{n}（{share}）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="193" />
        <source>Automatic template: a sentence in at least {n} documents ({docs} and {share} of the collection) is left out, unless the documents holding it copy one another.</source>
        <translation>自动模板：出现在至少 {n} 篇文档（至少 {docs} 篇且占全集 {share}）中的句子不计入，含有它的文档相互抄袭时除外。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="198" />
        <source>Automatic template is off: only your template files and marks are left out.</source>
        <translation>自动模板已关闭：只有您的模板文件和标记不计入。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/commonview.py" line="200" />
        <source>%n passage(s) found in several documents</source>
        <translation>
            <numerusform>%n 个段落在多篇文档中重复出现</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/commonview.py" line="201" />
        <source>%n of them left out as template</source>
        <translation>
            <numerusform>其中 %n 个作为模板不计入</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="202" />
        <source>{found}; {left_out}. {rule}</source>
        <translation>{found}；{left_out}。{rule}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="215" />
        <source>Common passages</source>
        <translation>常见段落</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="216" />
        <source>Text of the selected passage</source>
        <translation>所选段落的全文</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="217" />
        <source>Exclude as template</source>
        <translation>作为模板排除</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="218" />
        <source>Never count this passage in any comparison (stored with the collection)</source>
        <translation>在任何比对中都不计入此段落（随文献库保存）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="219" />
        <source>Count it</source>
        <translation>计入</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="220" />
        <source>Count this passage even though it is in most documents</source>
        <translation>即使此段落出现在大多数文档中，也计入</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="221" />
        <source>Undo my choice</source>
        <translation>撤销我的选择</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="222" />
        <source>Forget what you chose for this passage</source>
        <translation>取消您对此段落的选择</translation>
    </message>
</context>
<context>
    <name>DecisionDialog</name>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="282" />
        <source>Decide</source>
        <translation>认定</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="284" />
        <source>&lt;b&gt;{a}&lt;/b&gt; and &lt;b&gt;{b}&lt;/b&gt;</source>
        <translation>&lt;b&gt;{a}&lt;/b&gt; 与 &lt;b&gt;{b}&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="295" />
        <source>no decision</source>
        <translation>不作认定</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="297" />
        <source>The text was copied: it counts in the copied share</source>
        <translation>属于抄袭：计入复制比</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="298" />
        <source>The applicant's own earlier work: not counted</source>
        <translation>申请人本人已有成果：不计入</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="299" />
        <source>Quoted with its source named: not counted</source>
        <translation>已注明出处的引用：不计入</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="300" />
        <source>Common knowledge of the field: not counted</source>
        <translation>本领域公知内容：不计入</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="301" />
        <source>The match means nothing (a coincidence, a standard phrase): not counted</source>
        <translation>匹配无实际意义（巧合或常用表述）：不计入</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="302" />
        <source>Take the decision back</source>
        <translation>撤销认定</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="313" />
        <source>Note (printed in the reports):</source>
        <translation>说明（打印在报告中）：</translation>
    </message>
</context>
<context>
    <name>DiffView</name>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="667" />
        <source>No matched passages</source>
        <translation>没有相同段落</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="669" />
        <source>{n} matched passages</source>
        <translation>共 {n} 处相同段落</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="672" />
        <source>Passage {i} of {n}</source>
        <translation>第 {i} 处，共 {n} 处</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="694" />
        <source>Mark selection as template</source>
        <translation>将所选文字标为模板</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="696" />
        <source>Never count the selected sentences in any comparison of this collection (listed and undone in Common passages)</source>
        <translation>在本文献库的任何比对中都不计入所选句子（可在“常见段落”中查看和撤销）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="698" />
        <source>Side by side: {a} ↔ {b}</source>
        <translation>对照：{a} ↔ {b}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="708" />
        <source>A: {a}&lt;br&gt;B: {b}</source>
        <translation>A：{a}&lt;br&gt;B：{b}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="560" />
        <source>{n}. A {units_a} units, B {units_b}; {identical} identical: {snippet}</source>
        <translation>{n}. A {units_a} 字，B {units_b} 字；相同 {identical} 字：{snippet}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="564" />
        <source>{n}. {units} units, identical: {snippet}</source>
        <translation>{n}. {units} 字，完全相同：{snippet}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="569" />
        <source>(moved: in B at {place})</source>
        <translation>（已移位：在 B 的 {place} 处）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="571" />
        <source>(in B at {place})</source>
        <translation>（在 B 的 {place} 处）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="701" />
        <source>&lt;b&gt;Similarity r {sim}&lt;/b&gt; &amp;nbsp;·&amp;nbsp; A in B {ca} &amp;nbsp;·&amp;nbsp; B in A {cb} &amp;nbsp;·&amp;nbsp; identical units {common} &amp;nbsp;·&amp;nbsp; template share A {ta}, B {tb}</source>
        <translation>&lt;b&gt;相似度 r {sim}&lt;/b&gt; &amp;nbsp;·&amp;nbsp; A 在 B 中 {ca} &amp;nbsp;·&amp;nbsp; B 在 A 中 {cb} &amp;nbsp;·&amp;nbsp; 相同字数 {common} &amp;nbsp;·&amp;nbsp; 模板文字占比 A {ta}，B {tb}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="712" />
        <source>Similarity r is the LCS ratio identical / (A + B − identical) over countable units; A in B is the share of A found in B, counted over copied passages (identical runs and the edited words between them, shown in a lighter shade). Template text is not counted.</source>
        <translation>相似度 r 为按可计字数求得的最长公共子序列比：相同字数 / (A + B − 相同字数)；A 在 B 中为 A 在 B 中出现的比例，按被复制的片段计算（完全相同的片段及其间的改动文字，改动文字以浅色显示）。模板文字不计入。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="717" />
        <source>A: {title}</source>
        <translation>A：{title}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="718" />
        <source>B: {title}</source>
        <translation>B：{title}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="721" />
        <source>◀ Previous</source>
        <translation>◀ 上一处</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="722" />
        <source>Previous matched passage (Shift+F3, Ctrl+Up)</source>
        <translation>上一处相同段落（Shift+F3，Ctrl+↑）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="723" />
        <source>Next ▶</source>
        <translation>下一处 ▶</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="724" />
        <source>Next matched passage (F3, Ctrl+Down)</source>
        <translation>下一处相同段落（F3，Ctrl+↓）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="725" />
        <source>Larger text in both panes (Ctrl++, Ctrl+wheel)</source>
        <translation>两侧文字一起放大（Ctrl++、Ctrl+滚轮）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="726" />
        <source>Smaller text in both panes (Ctrl+−, Ctrl+wheel); Ctrl+0 resets</source>
        <translation>两侧文字一起缩小（Ctrl+−、Ctrl+滚轮）；Ctrl+0 恢复</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="727" />
        <source>Larger text</source>
        <translation>放大文字</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="728" />
        <source>Smaller text</source>
        <translation>缩小文字</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="729" />
        <source>Scroll together</source>
        <translation>同步滚动</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="730" />
        <source>Keep both texts at the matching place while scrolling</source>
        <translation>滚动时让两篇文本保持在对应位置</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="731" />
        <source>Open A</source>
        <translation>打开 A</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="732" />
        <source>Open the original file of A in its usual application</source>
        <translation>用默认程序打开 A 的原始文件</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="733" />
        <source>Open B</source>
        <translation>打开 B</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="734" />
        <source>Open the original file of B in its usual application</source>
        <translation>用默认程序打开 B 的原始文件</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="735" />
        <source>Matched passages</source>
        <translation>相同段落</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="736" />
        <source>Matched passages; choose one to show it in both texts</source>
        <translation>相同段落；选择一处即可在两篇文本中同时显示</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="737" />
        <source>Text A</source>
        <translation>文本 A</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="738" />
        <source>Text B</source>
        <translation>文本 B</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="739" />
        <source>Where the matches lie in A; click to jump</source>
        <translation>A 中相同段落的位置；点击即可跳转</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/diffview.py" line="740" />
        <source>Where the matches lie in B; click to jump</source>
        <translation>B 中相同段落的位置；点击即可跳转</translation>
    </message>
</context>
<context>
    <name>DocumentsModel</name>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="223" />
        <source>indexed with warnings</source>
        <translation>已索引（有警告）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="225" />
        <source>indexed</source>
        <translation>已索引</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="227" />
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="237" />
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="237" />
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="238" />
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="238" />
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="239" />
        <source>Units</source>
        <translation>总字数</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="239" />
        <source>Template share</source>
        <translation>模板文字占比</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="240" />
        <source>Countable units: CJK characters and words</source>
        <translation>可计字数：汉字和单词</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="241" />
        <source>Share of the document that is template text (not counted)</source>
        <translation>文档中模板文字所占比例（不计入）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="242" />
        <source>Integrity flags</source>
        <translation>文本异常标记</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="243" />
        <source>Look-alike letters, hidden text, invisible or traditional characters found in the document</source>
        <translation>文档中发现的形近字母、隐藏文字、不可见字符或繁体字</translation>
    </message>
</context>
<context>
    <name>DocumentsView</name>
    <message>
        <location filename="../../neardup_gui/app/documentsview.py" line="84" />
        <source>Filter documents…</source>
        <translation>筛选文档…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/documentsview.py" line="85" />
        <source>Filter documents</source>
        <translation>筛选文档</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/documentsview.py" line="86" />
        <source>Documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/documentsview.py" line="87" />
        <source>Only documents with warnings</source>
        <translation>只看有警告的文档</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/documentsview.py" line="88" />
        <source>Documents read only in part or leniently: invalid bytes replaced, or recovered from a damaged file</source>
        <translation>仅部分读取或宽容读取的文档：无效字节已替换，或从损坏的文件中恢复</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/documentsview.py" line="90" />
        <source>Only documents with integrity flags</source>
        <translation>仅显示有文本异常标记的文档</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/documentsview.py" line="91" />
        <source>Set applicant…</source>
        <translation>设置申请人…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/documentsview.py" line="92" />
        <source>Name the applicants of the chosen documents (their own author field names them until then); a CSV for many: File › Import applicants</source>
        <translation>为所选文档指定申请人（未指定时取自文件的作者属性）；批量指定请用：文件 › 导入申请人</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/documentsview.py" line="95" />
        <source>Documents with look-alike letters, hidden text, invisible characters or traditional characters: perhaps a disguised copy</source>
        <translation>含有形近字母、隐藏文字、不可见字符或繁体字的文档：可能是经过伪装的复制</translation>
    </message>
</context>
<context>
    <name>DuplicatesView</name>
    <message>
        <location filename="../../neardup_gui/app/duplicatesview.py" line="110" />
        <source>No pair of documents in which at least {cut} of one is found in the other. Checking a new submission (Check files…) compares it with every document, whatever its share.</source>
        <translation>没有一篇文档至少 {cut} 出现在另一篇中的文档对。检测新的送检文档（检测文件…）会将它与每篇文档比对，无论比例高低。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/duplicatesview.py" line="142" />
        <source>%n pair(s) in which at least {cut} of one document is found in the other</source>
        <translation>
            <numerusform>%n 对文档，其中一篇至少 {cut} 的内容见于另一篇</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/duplicatesview.py" line="146" />
        <source>%n pair(s) with similarity r of at least {threshold}</source>
        <translation>
            <numerusform>相似度 r 不低于 {threshold} 的文档对：%n 对</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/duplicatesview.py" line="150" />
        <source>Rank by:</source>
        <translation>排序依据：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/duplicatesview.py" line="115" />
        <source>No pair of documents reaches the similarity r threshold ({threshold}): no document of this collection is a near-copy of another. Rank by contained to list partial copies (a section copied into a longer text), or lower the threshold in Settings (Ctrl+,).</source>
        <translation>没有文档对达到相似度 r 阈值（{threshold}）：本文献库中没有近似复制另一篇的文档。按包含度排序可列出部分复制（某一节被复制到更长的文本中），也可在“设置”（Ctrl+,）中降低阈值。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/duplicatesview.py" line="151" />
        <source>similarity r</source>
        <translation>相似度 r</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/duplicatesview.py" line="152" />
        <source>contained</source>
        <translation>包含度</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/duplicatesview.py" line="153" />
        <source>Contained lists partial copies too: a section copied into a long proposal has a low similarity r, but most of the copy is found in the source</source>
        <translation>按包含度排序也会列出部分复制：一节内容被复制到很长的申请书中时，相似度 r 很低，但复制的内容大部分可在来源中找到</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/duplicatesview.py" line="155" />
        <source>Undecided only</source>
        <translation>仅显示未认定</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/duplicatesview.py" line="156" />
        <source>Pairs the examiner has not decided on yet (or decided on before a text changed)</source>
        <translation>审查人尚未认定（或认定后文本又有改动）的文档对</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/duplicatesview.py" line="158" />
        <source>Decide…</source>
        <translation>认定…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/duplicatesview.py" line="159" />
        <source>Record your decision on the chosen pair: copying confirmed, permitted (own work, cited, common knowledge) or not relevant, with a note</source>
        <translation>记录对所选文档对的认定：确认抄袭、允许（本人成果、已注明引用、公知内容）或无关，并可附说明</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/duplicatesview.py" line="161" />
        <source>Filter pairs…</source>
        <translation>筛选文档对…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/duplicatesview.py" line="162" />
        <source>Filter pairs</source>
        <translation>筛选文档对</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/duplicatesview.py" line="163" />
        <source>Duplicate pairs</source>
        <translation>重复文档对</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/duplicatesview.py" line="164" />
        <source>Double-click or press Enter to compare side by side</source>
        <translation>双击或按回车键进行对照比较</translation>
    </message>
</context>
<context>
    <name>ErrorDialog</name>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="117" />
        <source>neardup: problem</source>
        <translation>neardup：出现问题</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="126" />
        <source>Error details</source>
        <translation>错误详情</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="130" />
        <source>Copy details</source>
        <translation>复制详情</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="131" />
        <source>Copy the technical details to the clipboard</source>
        <translation>将技术详情复制到剪贴板</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="60" />
        <source>The index of this collection cannot be used.</source>
        <translation>此文献库的索引无法使用。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="61" />
        <source>The index file may be damaged or was made by a newer version. You can rebuild it from the documents; the old file is kept beside it as a backup.</source>
        <translation>索引文件可能已损坏，或由更新的版本创建。可以根据文档重建索引；旧文件会作为备份保留在旁边。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="66" />
        <source>The Dask cluster cannot be used.</source>
        <translation>无法使用该 Dask 集群。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="67" />
        <source>Nothing was changed. What stands in the way is said below; the cluster's address and certificates are in Settings (docs/scale.md says how to set up a cluster).</source>
        <translation>未做任何更改。原因见下文；集群的地址和证书可在“设置”中修改（如何搭建集群见 docs/scale.md）。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="72" />
        <source>The collection's folder cannot be read.</source>
        <translation>无法读取该文献库的文件夹。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="73" />
        <source>Nothing in the index was changed: its documents are kept as they were. Connect the drive or put the folder back, then refresh; or open the collection again from where it is now.</source>
        <translation>索引未作任何改动：其中的文档保持原样。请连接驱动器或将文件夹放回原处，然后刷新；或从文件夹现在的位置重新打开该文献库。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="78" />
        <source>The index is busy.</source>
        <translation>索引正忙。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="79" />
        <source>Another program (perhaps the command line) is writing to it. Wait until it finishes, then try again.</source>
        <translation>另一个程序（可能是命令行）正在写入索引。请等它完成后再试。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="83" />
        <source>The disk is full.</source>
        <translation>磁盘已满。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="83" />
        <source>Nothing was lost. Free some space, then try again.</source>
        <translation>没有丢失任何内容。请释放一些空间后再试。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="86" />
        <source>A file or folder could not be read or written.</source>
        <translation>无法读取或写入某个文件或文件夹。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="87" />
        <source>Check that you have permission to read the collection folder and to write to your application data folder.</source>
        <translation>请检查你是否有权读取文献库文件夹，并有权写入应用数据文件夹。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="92" />
        <source>A document of this result is no longer in the collection.</source>
        <translation>此结果涉及的一份文档已不在文献库中。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="93" />
        <source>It was removed or changed after the result was made. Check the submission again, or screen the call again, to compare with the collection as it is now.</source>
        <translation>它在得出此结果之后被删除或修改。请重新检测该申请书，或重新检测这批申请书，以便与当前的文献库比对。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="98" />
        <source>This screening has changed since it was shown.</source>
        <translation>这次批量检测在显示之后已有变化。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="99" />
        <source>It was screened again, deleted, or the index was rebuilt. The Screening tab now shows it as it is; open the submission again from there.</source>
        <translation>它已被重新检测、删除，或索引已重建。“批量检测”标签页现在显示其当前状态；请从那里重新打开该申请书。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="104" />
        <source>A file or folder was not found.</source>
        <translation>找不到某个文件或文件夹。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="105" />
        <source>It may have been moved or deleted. Refresh the collection or choose it again.</source>
        <translation>它可能已被移动或删除。请刷新文献库或重新选择。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="108" />
        <source>The index could not be used.</source>
        <translation>无法使用索引。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="108" />
        <source>Try again; if it keeps happening, copy the details below.</source>
        <translation>请重试；如果问题反复出现，请复制下面的详情。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="43" />
        <source>Something went wrong.</source>
        <translation>出现了问题。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="44" />
        <source>This is a bug in neardup. Copy the details below and send them to the developers; your documents are not affected.</source>
        <translation>这是 neardup 的程序错误。请复制下面的详情发给开发者；你的文档不受影响。</translation>
    </message>
</context>
<context>
    <name>Examiner</name>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="99" />
        <source>CSV</source>
        <translation>CSV 名单</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="100" />
        <source>set</source>
        <translation>已设置</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="101" />
        <source>file metadata</source>
        <translation>文件属性</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="108" />
        <source>none (set)</source>
        <translation>无（已设置）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="109" />
        <source>{names} ({source})</source>
        <translation>{names}（{source}）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="114" />
        <source>Named by the examiner's list of applicants (CSV)</source>
        <translation>来自审查人的申请人名单（CSV）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="116" />
        <source>Set by the examiner</source>
        <translation>由审查人设置</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="118" />
        <source>Taken from the file's own author field: set the applicant if it names someone else</source>
        <translation>取自文件自身的作者属性：如不是申请人本人，请设置申请人</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="120" />
        <source>Not known: the applicant's own earlier work cannot be told from others' work. Use “Set applicant…” or import a CSV.</source>
        <translation>未知：无法区分申请人本人的已有成果与他人文献。请使用“设置申请人…”或导入 CSV 名单。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="126" />
        <source>copying confirmed</source>
        <translation>确认抄袭</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="127" />
        <source>permitted: own work</source>
        <translation>允许：本人成果</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="128" />
        <source>permitted: cited</source>
        <translation>允许：已注明引用</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="129" />
        <source>permitted: common knowledge</source>
        <translation>允许：公知内容</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="130" />
        <source>not relevant</source>
        <translation>无关</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="138" />
        <source>{decision} — text changed since</source>
        <translation>{decision}——其后文本已改动</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="145" />
        <source>No decision yet</source>
        <translation>尚未认定</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="146" />
        <source>Decided {date}: {decision}</source>
        <translation>{date} 认定：{decision}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="149" />
        <source>Note: {note}</source>
        <translation>说明：{note}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="151" />
        <source>A text changed since this decision: it is not applied. Decide again.</source>
        <translation>认定后文本已改动：该认定未被采用，请重新认定。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="154" />
        <source>Its text is not counted in the copied share.</source>
        <translation>相应文字不计入复制比。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="171" />
        <source>decided</source>
        <translation>已认定</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="172" />
        <source>{n} of {total} decided</source>
        <translation>已认定 {n}/{total}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="185" />
        <source>the applicant's own: not copying</source>
        <translation>申请人本人的文档：不属抄袭</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="197" />
        <source>&lt;b&gt;Copied without own documents: {others}&lt;/b&gt; (the flag's figure)</source>
        <translation>&lt;b&gt;去除本人文献复制比：{others}&lt;/b&gt;（据此标记）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="200" />
        <source>copied from own documents {own}</source>
        <translation>本人文献复制比 {own}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="203" />
        <source>set apart by your decisions {share}</source>
        <translation>经您认定而剔除 {share}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="205" />
        <source>not known</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="206" />
        <source>applicants: {names}</source>
        <translation>申请人：{names}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="210" />
        <source>Resubmission / duplicate submission of {name}: the applicant's own work, not copying</source>
        <translation>重复申报（与 {name} 重复）：属申请人本人成果，不属抄袭</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="566" />
        <source>Applicants</source>
        <translation>申请人</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="567" />
        <source>Whose document it is: named by the examiner (a CSV or “Set applicant…”), else by the file's own author field</source>
        <translation>文档所属的申请人：由审查人指定（CSV 名单或“设置申请人…”），否则取自文件自身的作者属性</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="569" />
        <source>Decision</source>
        <translation>认定</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="570" />
        <source>The examiner's decision: copying confirmed, permitted (own work, cited, common knowledge) or not relevant</source>
        <translation>审查人的认定：确认抄袭、允许（本人成果、已注明引用、公知内容）或无关</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="572" />
        <source>Same applicant</source>
        <translation>同一申请人</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="573" />
        <source>Both documents are one applicant's: a resubmission or a duplicate submission, not copying</source>
        <translation>两篇文档属于同一申请人：属重复申报，不属抄袭</translation>
    </message>
</context>
<context>
    <name>ExaminerActions</name>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="357" />
        <source>Import &amp;applicants (CSV)…</source>
        <translation>导入申请人名单（CSV）(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="358" />
        <source>A CSV of path,applicant lines naming the applicants of the collection's files (paths relative to its folder)</source>
        <translation>每行为“路径,申请人”的 CSV 文件，指定文献库中各文件的申请人（路径相对于文献库文件夹）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="371" />
        <source>Import applicants</source>
        <translation>导入申请人</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="372" />
        <source>CSV files (*.csv *.txt);;All files (*)</source>
        <translation>CSV 文件 (*.csv *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="378" />
        <source>Applicants of {n} files read; {c} changed.</source>
        <translation>已读取 {n} 个文件的申请人；{c} 个有变动。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="381" />
        <source>neardup</source>
        <translation>neardup</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="382" />
        <source>Some lines of the CSV were not used:</source>
        <translation>CSV 中以下各行未被采用：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/examiner.py" line="385" />
        <source>…and {n} more</source>
        <translation>……以及另外 {n} 个</translation>
    </message>
</context>
<context>
    <name>Exclusions</name>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="41" />
        <source>template files</source>
        <translation>模板文件</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="42" />
        <source>marked by you</source>
        <translation>您标记的</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="43" />
        <source>automatic template</source>
        <translation>自动模板</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="44" />
        <source>page headers and footers</source>
        <translation>页眉页脚</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="45" />
        <source>quotations</source>
        <translation>引文</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="46" />
        <source>bibliography</source>
        <translation>参考文献</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="50" />
        <source>Nothing left out: every unit counts</source>
        <translation>没有排除任何内容：所有字词都计入</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/commonview.py" line="51" />
        <source>Left out, by reason: {parts} ({n} units in all)</source>
        <translation>按原因排除：{parts}（共 {n} 字）</translation>
    </message>
</context>
<context>
    <name>Export</name>
    <message>
        <location filename="../../neardup_gui/app/export.py" line="34" />
        <source>HTML report (*.html)</source>
        <translation>HTML 报告 (*.html)</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/export.py" line="35" />
        <source>PDF document (*.pdf)</source>
        <translation>PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/export.py" line="36" />
        <source>CSV table (*.csv)</source>
        <translation>CSV 表格 (*.csv)</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/export.py" line="37" />
        <source>JSON data (*.json)</source>
        <translation>JSON 数据 (*.json)</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/export.py" line="273" />
        <location filename="../../neardup_gui/app/export.py" line="301" />
        <location filename="../../neardup_gui/app/export.py" line="317" />
        <source>Export report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/export.py" line="293" />
        <source>Report written to {0}</source>
        <translation>报告已保存到 {0}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/export.py" line="302" />
        <source>The report could not be written: {0}</source>
        <translation>无法写入报告：{0}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/export.py" line="318" />
        <source>The report was written to {0}</source>
        <translation>报告已保存到 {0}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/export.py" line="320" />
        <source>Open report</source>
        <translation>打开报告</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/export.py" line="322" />
        <source>Show folder</source>
        <translation>打开所在文件夹</translation>
    </message>
</context>
<context>
    <name>FileField</name>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="64" />
        <source>Certificates (*.pem *.crt *.key);;All files (*)</source>
        <translation>证书 (*.pem *.crt *.key);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>Flags</name>
    <message>
        <location filename="../../neardup_gui/app/flagtext.py" line="28" />
        <source>Replaced characters: {n} in {w} words</source>
        <translation>替换字符：{w} 个词中共 {n} 个</translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/flagtext.py" line="17" />
        <source>Hidden text: %n character(s)</source>
        <translation>
            <numerusform>隐藏文字：%n 个字符</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/flagtext.py" line="33" />
        <source>Invisible characters: {n}</source>
        <translation>不可见字符：{n} 个</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/flagtext.py" line="35" />
        <source>Traditional characters folded for comparison: {n}</source>
        <translation>繁体字已转为简体比对：{n} 个</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/flagtext.py" line="42" />
        <source>replaced characters</source>
        <translation>替换字符</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/flagtext.py" line="44" />
        <source>hidden text</source>
        <translation>隐藏文字</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/flagtext.py" line="46" />
        <source>invisible characters</source>
        <translation>不可见字符</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/flagtext.py" line="48" />
        <source>traditional characters</source>
        <translation>繁体字</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/flagtext.py" line="55" />
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/flagtext.py" line="67" />
        <source>Compared as a reader sees the text: look-alike letters and traditional characters folded, invisible characters and hidden text left out of every figure.</source>
        <translation>比对按读者所见的文字进行：形近字母和繁体字已归一，不可见字符和隐藏文字不计入任何数值。</translation>
    </message>
</context>
<context>
    <name>HelpDialog</name>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="30" />
        <source>Open a folder as a collection</source>
        <translation>打开一个文件夹作为文献库</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="31" />
        <source>Check files against the collection (or drop them on the window)</source>
        <translation>用文献库检测文件（也可把文件拖到窗口上）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="32" />
        <source>Refresh the collection: read new, changed and deleted files</source>
        <translation>刷新文献库：读取新增、修改和删除的文件</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="33" />
        <source>Export a report of the current tab</source>
        <translation>导出当前标签页的报告</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="34" />
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="35" />
        <source>Cancel the running task (what is done is kept)</source>
        <translation>取消正在运行的任务（已完成的部分会保留）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="36" />
        <source>Open the chosen result side by side</source>
        <translation>并排对照所选结果</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="37" />
        <source>Side by side: next / previous matched passage (also Ctrl+Down / Ctrl+Up)</source>
        <translation>并排对照：下一处／上一处相同段落（也可用 Ctrl+下 / Ctrl+上）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="38" />
        <source>Side by side: larger / smaller / normal text in both panes (also Ctrl+wheel)</source>
        <translation>并排对照：两侧文字放大／缩小／恢复（也可用 Ctrl+滚轮）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="39" />
        <source>This help</source>
        <translation>本帮助</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="40" />
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="46" />
        <source>Units</source>
        <translation>总字数</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="47" />
        <source>The countable words and Chinese characters of a document: without punctuation, without template text (sentences of the call's form, your template files, page headers and footers) and without what the settings exclude (quotations, the bibliography). Every share below is a share of them.</source>
        <translation>文档中可计的汉字和词：不含标点，不含模板文字（申报书模板中的句子、模板文件、页眉页脚），也不含设置排除的内容（引文、参考文献）。以下各项比例均以此为分母。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="51" />
        <source>The share of the submission's units found in any source, each passage counted once however many sources hold it. It is never below the largest single source.</source>
        <translation>送检文档字数中在任一来源中找到的比例，每个片段无论出现在多少个来源中都只计一次。不会低于单篇最大文字复制比。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="53" />
        <source>Copied without quotations</source>
        <translation>去除引用文献复制比</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="56" />
        <source>Copied without own documents</source>
        <translation>去除本人文献复制比</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="57" />
        <source>Copied, not counting the text credited to the applicant's own documents: what a submission of a screening is flagged by. A submission that is mostly one of its applicant's own documents is labelled a resubmission / duplicate submission. Applicants come from your CSV or “Set applicant…”, else from each file's author field.</source>
        <translation>复制比中去除计入申请人本人文档的文字后的比例：批量检测中的申请书据此标记。主要内容为申请人本人某一文档的申请书标为“重复申报”。申请人来自您导入的 CSV 名单或“设置申请人…”，否则取自各文件的作者属性。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="61" />
        <source>Decision</source>
        <translation>认定</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="62" />
        <source>Yours, on a pair or on a source of a submission: copying confirmed; permitted (own work, cited, common knowledge) or not relevant, whose text then leaves the copied share; with a note, printed in the reports. Kept under the two texts' contents: a text changed since is marked and its decision no longer applied.</source>
        <translation>您对一对文档或申请书某一来源的认定：确认抄袭；允许（本人成果、已注明引用、公知内容）或无关——其相应文字随即不计入复制比；可附说明，打印在报告中。认定按两篇文本的内容保存：其后文本有改动的会被标出，该认定不再采用。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="67" />
        <source>The share of the submission's units found in the one source that holds the most.</source>
        <translation>送检文档字数中在重复最多的那一个来源中找到的比例。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="68" />
        <source>Share of the submission</source>
        <translation>占送检文档比例</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="69" />
        <source>The share of the submission's units found in one source (a row of the Check tab, a source of the submission view).</source>
        <translation>送检文档字数中在某一个来源中找到的比例（“检测”标签页中的一行，提交文档视图中的一个来源）。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="71" />
        <source>Credited</source>
        <translation>计入比例</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="72" />
        <source>The share of the submission's units credited to one source: a passage several sources hold is credited to one of them (a document of the collection before a submission of the call, then the earlier indexed, then the one holding more), so the sources' credited shares add up to Copied.</source>
        <translation>送检文档字词中计入某一来源的比例：多个来源都含有的段落只计入其中一个（文献库中的文档先于本批次的其他送检文档，其次较早入库者，再次含量较多者），因此各来源的计入比例之和等于总文字复制比。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="75" />
        <source>Similarity r</source>
        <translation>相似度 r</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="76" />
        <source>Identical / (A + B − identical), identical being the units of the identical runs inside the passages two texts share in order (runs of at least the minimum match length and the shorter ones between them, across small edits). 100 % means the same text; passages that moved count in A in B, not here.</source>
        <translation>相同字数 / (A + B − 相同字数)，相同字数为两篇文本按顺序共有的段落中完全相同片段的字数（不短于最小匹配长度的片段，以及小改动之间较短的相同片段）。100% 表示文本相同；移动过的段落计入 A 在 B 中，不计入此处。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="80" />
        <source>A in B</source>
        <translation>A 在 B 中</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="81" />
        <source>The share of A's units found in B (B in A: the other way). A short text copied whole into a long one has a high A in B and a low similarity r.</source>
        <translation>A 的字数中在 B 中找到的比例（B 在 A 中则相反）。一篇短文被整篇复制到长文中时，A 在 B 中很高而相似度 r 很低。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="83" />
        <source>Contained</source>
        <translation>包含度</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="83" />
        <source>The larger of A in B and B in A.</source>
        <translation>A 在 B 中与 B 在 A 中两者的较大值。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="84" />
        <source>Identical units</source>
        <translation>相同字数</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="84" />
        <source>The units inside the identical runs two texts share: what the similarity r counts.</source>
        <translation>两篇文本共有的完全相同片段中的字数：相似度 r 所计的字数。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="86" />
        <source>Copied units</source>
        <translation>重复字数</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="86" />
        <source>How many units of a submission (or of a section) lie in copied passages.</source>
        <translation>送检文档（或其中一节）位于被复制片段中的字数。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="88" />
        <source>The share of a document that is template text (shown grey, never counted).</source>
        <translation>文档中模板文字所占的比例（以灰色显示，从不计入）。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="90" />
        <source>Flag line</source>
        <translation>标记线</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="90" />
        <source>A screened submission whose copied share reaches this line is flagged.</source>
        <translation>批量检测中总文字复制比达到此线的申请书会被标记。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="92" />
        <source>Hide sources below</source>
        <translation>隐藏低于此值的来源</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="93" />
        <source>An option of the Check tab, off at first: hides the sources whose similarity r and share of the submission are both below the value. Hidden sources still count in Copied, and the tab says how many are hidden.</source>
        <translation>“检测”标签页的选项，默认关闭：隐藏相似度 r 和占送检文档比例都低于该值的来源。隐藏的来源仍计入总文字复制比，标签页会说明隐藏了多少个。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="50" />
        <source>Copied</source>
        <translation>总文字复制比</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="54" />
        <source>Copied, not counting text inside quotation marks. Never above Copied; equal to it when quotations are excluded in the settings.</source>
        <translation>总文字复制比中不计引号内的文字。不会高于总文字复制比；在设置中排除引文时两者相等。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="66" />
        <source>Largest single source</source>
        <translation>单篇最大文字复制比</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="88" />
        <source>Template share</source>
        <translation>模板文字占比</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="102" />
        <source>Open a folder of submissions: it is indexed once, then only changes are read. The Duplicates and Clusters tabs list near-duplicates inside the collection; drop a new file on the window to check it against the collection. Double-click any result to see both texts side by side. Matching and template settings are kept with each collection; new collections start from the defaults.</source>
        <translation>打开一个存放申报材料的文件夹：第一次建立索引，之后只读取有变化的文件。“重复对”和“聚类”标签页列出文献库内部的近似重复；把新文件拖到窗口上即可用文献库检测它。双击任一结果可并排对照两篇文本。匹配和模板设置随各文献库保存；新文献库从默认值开始。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="106" />
        <location filename="../../neardup_gui/app/helpview.py" line="114" />
        <source>neardup help</source>
        <translation>neardup 帮助</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="107" />
        <source>What the figures mean</source>
        <translation>各项比例的含义</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="108" />
        <source>Keyboard shortcuts</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/helpview.py" line="115" />
        <source>Help</source>
        <translation>帮助</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="138" />
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="139" />
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="140" />
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="141" />
        <source>&amp;Open a folder…</source>
        <translation>打开文件夹(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="142" />
        <source>Choose a folder of documents to index as a collection</source>
        <translation>选择一个文档文件夹，将其建立索引作为文献库</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="143" />
        <source>Open the &amp;sample collection</source>
        <translation>打开示例文献库(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="144" />
        <source>&amp;Check files…</source>
        <translation>检测文件(&amp;C)…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="145" />
        <source>Check one or more submissions against the collection</source>
        <translation>将一份或多份送检文档与文献库比对</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="146" />
        <source>&amp;Refresh the collection</source>
        <translation>刷新文献库(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="147" />
        <source>&amp;Export a report…</source>
        <translation>导出报告(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="149" />
        <source>Save what the current tab shows (check results, duplicate pairs or clusters) as HTML, PDF, CSV or JSON</source>
        <translation>将当前标签页的内容（检测结果、重复文档对或聚类）保存为 HTML、PDF、CSV 或 JSON</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="150" />
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="152" />
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="153" />
        <source>&amp;About neardup</source>
        <translation>关于 neardup(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="154" />
        <source>neardup &amp;Help</source>
        <translation>neardup 帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="155" />
        <source>What each figure means, and the keyboard shortcuts (F1)</source>
        <translation>各项比例的含义和快捷键（F1）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="156" />
        <source>&lt;b&gt;Collection&lt;/b&gt;</source>
        <translation>&lt;b&gt;文献库&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="157" />
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="158" />
        <source>Pick up new, changed and deleted files (only those are read) (F5)</source>
        <translation>纳入新增、修改和删除的文件（只读取这些文件）（F5）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="160" />
        <source>Check one or more submissions against the collection (Ctrl+K); you can also drop files on the window</source>
        <translation>将一份或多份送检文档与文献库比对（Ctrl+K）；也可以把文件拖到窗口上</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="161" />
        <source>Open another folder…</source>
        <translation>打开其他文件夹…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="162" />
        <source>Recent collections:</source>
        <translation>最近的文献库：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="163" />
        <source>Recent collections</source>
        <translation>最近的文献库</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="164" />
        <source>Refresh now</source>
        <translation>立即刷新</translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/mainwindow.py" line="464" />
        <source>%n file(s) could not be read.</source>
        <translation>
            <numerusform>%n 个文件无法读取。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/mainwindow.py" line="466" />
        <source>%n unchanged file(s) read again: this version reads their format differently.</source>
        <translation>
            <numerusform>%n 个未改动的文件已重新读取：此版本读取其格式的方式不同。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/mainwindow.py" line="469" />
        <source>%n document(s) kept as they were: their folder could not be read.</source>
        <translation>
            <numerusform>%n 个文档保持原样：其所在文件夹无法读取。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/mainwindow.py" line="589" />
        <source>%n document(s): {indexed} indexed, {warned} with warnings, {skipped} skipped</source>
        <translation>
            <numerusform>共 %n 个文档：已索引 {indexed}，有警告 {warned}，跳过 {skipped}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/mainwindow.py" line="595" />
        <source>; %n file(s) could not be read</source>
        <translation>
            <numerusform>；%n 个文件无法读取</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/mainwindow.py" line="597" />
        <source>; %n other file(s) left out (not a format neardup reads)</source>
        <translation>
            <numerusform>；另有 %n 个其他格式的文件未纳入（neardup 不读取该格式）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="781" />
        <source>Updating the results for the changed settings… The figures shown are those of the previous settings until this finishes.</source>
        <translation>正在按更改后的设置更新结果……完成之前显示的仍是原设置下的数字。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="166" />
        <source>Documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="159" />
        <source>Check files…</source>
        <translation>检测文件…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="167" />
        <source>Check</source>
        <translation>检测</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="168" />
        <source>Duplicates</source>
        <translation>重复对</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="169" />
        <source>Clusters</source>
        <translation>聚类</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="170" />
        <source>Every file of the collection and its status</source>
        <translation>文献库中的每个文件及其状态</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="171" />
        <source>Sources found for checked submissions</source>
        <translation>为送检文档找到的来源</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="172" />
        <source>Pairs of the collection at or above the similarity threshold</source>
        <translation>文献库中相似度达到阈值的文档对</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="173" />
        <source>Groups of near-duplicates</source>
        <translation>近似重复文档的分组</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="174" />
        <source>Common passages</source>
        <translation>常见段落</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="175" />
        <source>Passages found in many documents: which are left out as template, and why</source>
        <translation>在许多文档中出现的段落：哪些作为模板不计入，以及原因</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="176" />
        <source>Screening</source>
        <translation>批量检测</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="177" />
        <source>A whole call: every new submission checked against the collection and each other, ranked by copied share</source>
        <translation>整批申请：每份新申请书与文献库及彼此比对，按复制比排序</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="204" />
        <source>{name} — neardup</source>
        <translation>{name} — neardup</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="209" />
        <source>Indexing</source>
        <translation>正在建立索引</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="210" />
        <source>Rebuilding the index</source>
        <translation>正在重建索引</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="211" />
        <source>Opening</source>
        <translation>正在打开</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="212" />
        <source>Finding duplicates</source>
        <translation>正在查找重复</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="213" />
        <source>Checking</source>
        <translation>正在检测</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="214" />
        <source>Adding to the collection</source>
        <translation>正在加入文献库</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="215" />
        <source>Updating the results</source>
        <translation>正在更新结果</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="216" />
        <source>Screening the call</source>
        <translation>批量检测中</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="217" />
        <source>Keeping the applicants and decisions</source>
        <translation>正在保存申请人与认定</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="231" />
        <location filename="../../neardup_gui/app/mainwindow.py" line="355" />
        <source>Please wait for the current task to finish, or cancel it.</source>
        <translation>请等待当前任务完成，或取消它。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="247" />
        <source>Cancelled. Everything finished before cancelling is kept.</source>
        <translation>已取消。取消前已完成的内容都已保留。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="262" />
        <source>The index is being rebuilt.</source>
        <translation>正在重建索引。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="262" />
        <source>Try again when it is done.</source>
        <translation>请在完成后重试。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/intake.py" line="37" />
        <location filename="../../neardup_gui/app/intake.py" line="47" />
        <location filename="../../neardup_gui/app/intake.py" line="177" />
        <location filename="../../neardup_gui/app/mainwindow.py" line="271" />
        <location filename="../../neardup_gui/app/mainwindow.py" line="348" />
        <location filename="../../neardup_gui/app/mainwindow.py" line="359" />
        <location filename="../../neardup_gui/app/mainwindow.py" line="364" />
        <location filename="../../neardup_gui/app/mainwindow.py" line="407" />
        <location filename="../../neardup_gui/app/mainwindow.py" line="625" />
        <location filename="../../neardup_gui/app/mainwindow.py" line="726" />
        <source>neardup</source>
        <translation>neardup</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="272" />
        <source>Rebuild the index now?</source>
        <translation>现在重建索引吗？</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="340" />
        <source>Choose the folder of the collection</source>
        <translation>选择文献库所在的文件夹</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="348" />
        <source>The sample collection is missing from this installation.</source>
        <translation>此安装中缺少示例文献库。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="360" />
        <source>The folder {folder} does not exist any more. Choose it again from where it is now.</source>
        <translation>文件夹 {folder} 已不存在。请从它现在的位置重新选择。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="365" />
        <source>The folder {folder} cannot be opened: its path is not valid UTF-8{gbk}. Rename it, then open it again.</source>
        <translation>无法打开文件夹 {folder}：它的路径不是有效的 UTF-8 编码{gbk}。请重命名后再打开。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="366" />
        <source>(in GBK: '{name}')</source>
        <translation>（按 GBK 编码读作“{name}”）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="552" />
        <source>The last indexing of this folder did not finish (it was cancelled, or the program was closed): only the documents indexed until then are shown. Refresh to continue where it stopped.</source>
        <translation>此文件夹上次的索引没有完成（被取消，或程序被关闭）：只显示当时已索引的文档。点击刷新可从中断处继续。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="599" />
        <source>Could not be read:</source>
        <translation>无法读取：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="602" />
        <source>Left out: neardup reads {formats} files, and by its content a file named without a type (README, ls.1).</source>
        <translation>未纳入：neardup 读取 {formats} 文件，以及按内容读取没有类型后缀的文件（如 README、ls.1）。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="254" />
        <source>The collection's folder holds no documents now.</source>
        <translation>该文献库的文件夹中现在没有任何文档。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="408" />
        <source>The folder {folder} holds no documents now, while this collection's index holds {n}. If the folder is on a drive or a network share, connect it and refresh: nothing was changed.

Were the documents deleted on purpose? Remove all {n} from the index?</source>
        <translation>文件夹 {folder} 中现在没有任何文档，而该文献库的索引中有 {n} 个文档。如果该文件夹位于外接驱动器或网络共享上，请连接后再刷新：索引未作任何改动。

这些文档是有意删除的吗？要从索引中移除全部 {n} 个文档吗？</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="455" />
        <source>Indexed: {added} added, {updated} updated, {moved} moved, {removed} removed, {unchanged} unchanged, {warned} with warnings, {skipped} skipped ({seconds:.1f} s)</source>
        <translation>索引完成：新增 {added}，更新 {updated}，移动 {moved}，删除 {removed}，未变 {unchanged}，有警告 {warned}，跳过 {skipped}（{seconds:.1f} 秒）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="520" />
        <source>Select at least one whole sentence ({n} words or characters) to mark it as template.</source>
        <translation>请至少选择一个完整的句子（{n} 个字或词）才能标为模板。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="549" />
        <source>Indexing was cancelled: the documents indexed so far are shown. Refresh to continue where it stopped.</source>
        <translation>索引已取消：这里显示的是已建立索引的文档。点击刷新可从中断处继续。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="556" />
        <source>This is the saved index; files may have changed since. Refresh to pick up new, changed and deleted files.</source>
        <translation>这是已保存的索引，文件之后可能有变化。点击刷新可纳入新增、修改和删除的文件。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="601" />
        <location filename="../../neardup_gui/app/mainwindow.py" line="604" />
        <source>…and {n} more</source>
        <translation>……以及另外 {n} 个</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/intake.py" line="29" />
        <source>Choose submissions to check</source>
        <translation>选择要检测的送检文档</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/intake.py" line="30" />
        <source>Documents ({patterns});;All files (*)</source>
        <translation>文档 ({patterns});;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/intake.py" line="38" />
        <source>Open a collection first (a folder of documents), then check files against it.</source>
        <translation>请先打开一个文献库（一个文档文件夹），再将文件与它比对。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/intake.py" line="47" />
        <source>Some files could not be read:</source>
        <translation>有些文件无法读取：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/intake.py" line="71" />
        <location filename="../../neardup_gui/app/intake.py" line="114" />
        <source>Add to collection</source>
        <translation>加入文献库</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/intake.py" line="71" />
        <source>These files cannot be added to the collection: their names are not valid UTF-8 (in GBK, perhaps). Rename them, check them again, then add them.</source>
        <translation>这些文件无法加入文献库：它们的文件名不是有效的 UTF-8 编码（可能是 GBK 编码）。请重命名，重新检测后再加入。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/intake.py" line="92" />
        <source>{n} checked file(s) are outside the collection's folder {folder}.

Copy them into the folder, or keep them where they are as external members? An external member stays in the collection when it is refreshed; if you move or delete the file, it leaves the collection.</source>
        <translation>有 {n} 个已检测的文件不在文献库文件夹 {folder} 中。

把它们复制到该文件夹，还是保留在原处作为外部成员？外部成员在刷新时会保留在文献库中；如果移动或删除了该文件，它就会离开文献库。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/intake.py" line="97" />
        <source>Copy into the folder</source>
        <translation>复制到文件夹</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/intake.py" line="98" />
        <source>Keep where they are</source>
        <translation>保留在原处</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/intake.py" line="103" />
        <source>The collection's folder already has a file named {names}.

Rename the copy (for example “name (2).docx”), or replace the file in the folder?</source>
        <translation>文献库文件夹中已有名为 {names} 的文件。

给复制的文件改名（例如“名称 (2).docx”），还是替换文件夹中的文件？</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/intake.py" line="107" />
        <source>Rename the copy</source>
        <translation>改名复制</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/intake.py" line="108" />
        <source>Replace</source>
        <translation>替换</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/intake.py" line="128" />
        <source>{name}: copied into the collection's folder as {member}</source>
        <translation>{name}：已复制到文献库文件夹，名为 {member}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/intake.py" line="131" />
        <source>{name}: kept where it is, as an external member ({path})</source>
        <translation>{name}：保留在原处，作为外部成员（{path}）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/intake.py" line="134" />
        <source>{name}: already in the collection's folder</source>
        <translation>{name}：已在文献库文件夹中</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/intake.py" line="136" />
        <source>The checked submissions are now part of the collection.</source>
        <translation>已检测的送检文档已加入文献库。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/intake.py" line="138" />
        <source>Added to the collection</source>
        <translation>已加入文献库</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="626" />
        <source>Open a collection first (a folder of documents), then screen a call against it.</source>
        <translation>请先打开一个文献库（文档文件夹），再对一批申请书进行检测。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="727" />
        <source>The fingerprints are being rebuilt from the stored texts in the background.</source>
        <translation>正在后台根据已保存的文本重建指纹。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="768" />
        <source>The checked submissions were compared again with the collection as it is now.</source>
        <translation>已将所检测的申请书与当前的文献库重新比对。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="770" />
        <source>The results now follow the applicants and decisions.</source>
        <translation>结果已按申请人与认定更新。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="772" />
        <source>The results now follow the changed settings.</source>
        <translation>结果已按更改后的设置更新。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="776" />
        <source>Checking the shown submissions again against the changed collection… Their figures are those of the collection before until this finishes.</source>
        <translation>文献库已变化，正在重新检测所显示的申请书… 完成之前，显示的数据仍是变化前文献库的结果。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="779" />
        <source>Updating the results for the applicants and decisions…</source>
        <translation>正在按申请人与认定更新结果…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="807" />
        <source>About neardup</source>
        <translation>关于 neardup</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="808" />
        <source>&lt;h3&gt;neardup {version}&lt;/h3&gt;&lt;p&gt;Near-duplicate and plagiarism screening of local document collections, in Chinese and English. Similarity is the LCS ratio of the two texts with template text left out. No document leaves this computer.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;neardup {version}&lt;/h3&gt;&lt;p&gt;对本地中英文文献库进行近似重复与抄袭筛查。相似度为两篇文本的最长公共子序列比率，不计模板文字。所有文档都不会离开这台电脑。&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/intake.py" line="178" />
        <source>Drop one folder to open it as a collection, or files to check them.</source>
        <translation>拖入一个文件夹即可作为文献库打开，拖入文件即可检测它们。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/mainwindow.py" line="819" />
        <source>Stopping the running task…</source>
        <translation>正在停止当前任务…</translation>
    </message>
</context>
<context>
    <name>PairsModel</name>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="461" />
        <source>Document A</source>
        <translation>文档 A</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="461" />
        <source>Document B</source>
        <translation>文档 B</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="462" />
        <source>A in B</source>
        <translation>A 在 B 中</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="462" />
        <source>Similarity r</source>
        <translation>相似度 r</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="463" />
        <source>B in A</source>
        <translation>B 在 A 中</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="463" />
        <source>Identical units</source>
        <translation>相同字数</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="464" />
        <source>Share of A's countable units found in B</source>
        <translation>A 的可计字数中在 B 中找到的比例</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="465" />
        <source>Share of B's countable units found in A</source>
        <translation>B 的可计字数中在 A 中找到的比例</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="466" />
        <source>LCS ratio of the two texts, template text left out</source>
        <translation>两篇文本的最长公共子序列比率，不计模板文字</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="467" />
        <source>Units in the identical runs the two texts share</source>
        <translation>两篇文本共有的完全相同片段中的字数</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="468" />
        <source>Contained</source>
        <translation>包含度</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="469" />
        <source>The larger of A in B and B in A: how much of one is found in the other</source>
        <translation>A 在 B 中与 B 在 A 中的较大者：一篇文档有多少内容见于另一篇</translation>
    </message>
</context>
<context>
    <name>ProgressCounts</name>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/widgets.py" line="48" />
        <source>Found %n document(s)</source>
        <translation>
            <numerusform>找到 %n 个文档</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/widgets.py" line="51" />
        <source>Finding common passages (%n document(s) read)</source>
        <translation>
            <numerusform>正在查找常见段落（已读 %n 篇文档）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/widgets.py" line="54" />
        <source>Re-fingerprinted %n document(s)</source>
        <translation>
            <numerusform>已重新计算 %n 个文档的指纹</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/widgets.py" line="57" />
        <source>Indexed %n document(s) ({warned} with warnings, {skipped} skipped)</source>
        <translation>
            <numerusform>已索引 %n 个文档（有警告 {warned}，跳过 {skipped}）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ProgressMessages</name>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="62" />
        <source>Indexed {done} of {total}: {file}</source>
        <translation>已索引 {done}/{total}：{file}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="63" />
        <source>Added {done} of {total}: {file}</source>
        <translation>已加入 {done}/{total}：{file}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="64" />
        <source>Re-fingerprinting {done} of {total}</source>
        <translation>正在重新计算指纹 {done}/{total}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="65" />
        <source>Comparing {done} of {total}</source>
        <translation>正在比对 {done}/{total}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="66" />
        <source>Verifying {done} of {total} candidates</source>
        <translation>正在核验候选文档 {done}/{total}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="67" />
        <source>Compared {done} of {total}</source>
        <translation>已比对 {done}/{total}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="68" />
        <source>Quoting {file}</source>
        <translation>正在摘录 {file}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="69" />
        <source>Updating the figures of {file}</source>
        <translation>正在更新 {file} 的数值</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="70" />
        <source>Writing {file}</source>
        <translation>正在写入 {file}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="71" />
        <source>Wrote {file}</source>
        <translation>已写入 {file}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="72" />
        <source>Completing the index: {done} of {total}</source>
        <translation>正在补全索引：{done}/{total}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="91" />
        <source>Finding common passages</source>
        <translation>正在查找常见段落</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="92" />
        <source>Common passages found</source>
        <translation>已找出常见段落</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="93" />
        <source>Saving the search tables</source>
        <translation>正在保存检索表</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="94" />
        <source>Reading the submissions</source>
        <translation>正在读取送检文档</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="95" />
        <source>Scanning the folder</source>
        <translation>正在扫描文件夹</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="96" />
        <source>Report ready</source>
        <translation>报告已生成</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="97" />
        <source>Building the report</source>
        <translation>正在生成报告</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="98" />
        <source>Screened</source>
        <translation>批量检测完成</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="99" />
        <source>Checked</source>
        <translation>检测完成</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="100" />
        <source>Compared</source>
        <translation>比对完成</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="73" />
        <source>Reading {file}</source>
        <translation>正在读取 {file}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="74" />
        <source>Scanning {file}</source>
        <translation>正在扫描 {file}</translation>
    </message>
</context>
<context>
    <name>ProgressPanel</name>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="265" />
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="279" />
        <source>Elapsed {elapsed}</source>
        <translation>已用 {elapsed}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="281" />
        <source>about {remaining} left</source>
        <translation>约剩 {remaining}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="290" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="291" />
        <source>Stop the running task; everything done so far is kept (Esc)</source>
        <translation>停止当前任务；已完成的内容都会保留（Esc）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/widgets.py" line="292" />
        <source>Progress</source>
        <translation>进度</translation>
    </message>
</context>
<context>
    <name>ScreeningModel</name>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="85" />
        <source>Rank</source>
        <translation>排名</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="85" />
        <source>Submission</source>
        <translation>申请书</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="86" />
        <source>Copied</source>
        <translation>总文字复制比</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="86" />
        <source>Flag</source>
        <translation>标记</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="87" />
        <source>Largest source (file)</source>
        <translation>最大来源（文件）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="88" />
        <source>Largest single source</source>
        <translation>单篇最大文字复制比</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="90" />
        <source>Share of the submission found in its sources, template text not counted</source>
        <translation>送检文档中在其来源中找到的比例，模板文字不计入</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="89" />
        <source>Sources</source>
        <translation>相似文献数</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="89" />
        <source>Warnings</source>
        <translation>提示</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="91" />
        <source>Share of the submission found in its single largest source</source>
        <translation>申请书在单个最大来源中的重复比例</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="92" />
        <source>Sources counted (documents of the collection and other submissions of this call)</source>
        <translation>计入的来源数（文献库中的文档及本批次其他申请书）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="93" />
        <source>Integrity flags</source>
        <translation>文本异常标记</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="94" />
        <source>Copied without own documents</source>
        <translation>去除本人文献复制比</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="95" />
        <source>Copied, not counting the text credited to the applicants' own documents: what a submission is flagged by</source>
        <translation>复制比中不计申请人本人文档的部分：申请书据此标记</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="97" />
        <source>Look-alike letters, hidden text, invisible or traditional characters found in the submission</source>
        <translation>送检文档中发现的形近字母、隐藏文字、不可见字符或繁体字</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="137" />
        <source>flagged</source>
        <translation>已标记</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="139" />
        <source>resubmission / duplicate submission</source>
        <translation>重复申报</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="145" />
        <source>not read: {reason}</source>
        <translation>未读取：{reason}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="171" />
        <source>{share} of it is the applicant's own {source}</source>
        <translation>其中 {share} 来自申请人本人的 {source}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="174" />
        <source>Sources without a decision (or decided before a text changed): open the submission to decide</source>
        <translation>有未认定（或认定后文本已改动）的来源：打开该申请书进行认定</translation>
    </message>
</context>
<context>
    <name>ScreeningView</name>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/screeningview.py" line="342" />
        <source>&lt;b&gt;%n submission(s)&lt;/b&gt; in {folder}</source>
        <translation>
            <numerusform>{folder} 中的 &lt;b&gt;%n 份申请书&lt;/b&gt;</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="343" />
        <source>: {flagged}, {unread}</source>
        <translation>：{flagged}，{unread}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/screeningview.py" line="344" />
        <source>%n at or above the flag line</source>
        <translation>
            <numerusform>%n 份达到或超过标记线</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/screeningview.py" line="345" />
        <source>%n could not be read</source>
        <translation>
            <numerusform>%n 份无法读取</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/screeningview.py" line="347" />
        <source>%n other file(s) left out (not a format neardup reads)</source>
        <translation>
            <numerusform>另有 %n 个其他格式的文件未检测（neardup 不读取该格式）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="349" />
        <source>interrupted: screen again to check the rest</source>
        <translation>检测中断：再次检测以完成其余部分</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="352" />
        <source>Not screened: neardup reads {formats} files, and by its content a file named without a type (README, ls.1).</source>
        <translation>未检测：neardup 读取 {formats} 文件，以及按内容读取没有类型后缀的文件（如 README、ls.1）。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="354" />
        <source>…and {n} more</source>
        <translation>……以及另外 {n} 个</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="359" />
        <source>Choose the folder of new submissions</source>
        <translation>选择新申请书所在文件夹</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="424" />
        <source>Screen a folder…</source>
        <translation>检测文件夹…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="425" />
        <source>Check every file of a folder of new submissions against the collection and against each other; you can also drop the folder here</source>
        <translation>将文件夹中的每份新申请书与文献库及彼此比对；也可以把文件夹拖到这里</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="427" />
        <source>Screen again</source>
        <translation>重新检测</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="428" />
        <source>Pick up new and changed submissions; an interrupted screening goes on where it stopped</source>
        <translation>纳入新增和修改的申请书；中断的检测从中断处继续</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="430" />
        <source>Screening:</source>
        <translation>检测批次：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="431" />
        <source>Screenings kept in this collection</source>
        <translation>本文献库保存的检测批次</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="432" />
        <source>Flag line:</source>
        <translation>标记线：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="433" />
        <source>A submission is flagged when its copied share without own documents (template text and the applicant's own documents not counted) reaches this line</source>
        <translation>申请书的去除本人文献复制比（不计模板文字和申请人本人文档）达到此线时标记</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="437" />
        <source>Flag line</source>
        <translation>标记线</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="438" />
        <source>Flagged only</source>
        <translation>仅显示已标记</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="439" />
        <source>With integrity flags only</source>
        <translation>仅显示有文本异常标记的</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="440" />
        <source>Undecided only</source>
        <translation>仅显示未认定</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="441" />
        <source>Submissions with a source the examiner has not decided on yet (or decided on before a text changed)</source>
        <translation>有审查人尚未认定（或认定后文本已改动）来源的申请书</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="443" />
        <source>Set applicant…</source>
        <translation>设置申请人…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="444" />
        <source>Name the applicants of the chosen submissions: their own earlier documents are then told apart from others'</source>
        <translation>为所选申请书指定申请人，以便区分其本人已有文档与他人文献</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="446" />
        <source>Submissions with look-alike letters, hidden text, invisible characters or traditional characters: perhaps a disguised copy</source>
        <translation>含有形近字母、隐藏文字、不可见字符或繁体字的送检文档：可能是经过伪装的复制</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="448" />
        <source>Filter submissions…</source>
        <translation>筛选申请书…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="449" />
        <source>Filter submissions</source>
        <translation>筛选申请书</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="450" />
        <source>Screened submissions</source>
        <translation>已检测的申请书</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="451" />
        <source>Double-click or press Enter to open the submission with its sources coloured</source>
        <translation>双击或按回车键打开申请书，按来源着色显示</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/screeningview.py" line="452" />
        <source>Screen a whole call: drop a folder of new submissions here, or use “Screen a folder…”. Each is checked against the collection and against the other submissions, and the table ranks them by copied share.</source>
        <translation>检测整批申请：把新申请书所在文件夹拖到这里，或使用“检测文件夹…”。每份申请书都与文献库及其他申请书比对，表格按复制比排序。</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="232" />
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="235" />
        <source>Matching and template text are kept with the collection “{name}”: other collections keep their own. Index and interface settings apply everywhere.</source>
        <translation>匹配和模板文字设置随文献库“{name}”保存，其他文献库各有自己的设置。索引和界面设置对所有文献库生效。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="239" />
        <source>No collection is open: matching and template settings set here are the defaults every new collection starts from.</source>
        <translation>当前没有打开文献库：此处的匹配和模板设置是每个新文献库的默认值。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="241" />
        <source>Also use these matching and template settings for new collections</source>
        <translation>同时把这些匹配和模板设置作为新文献库的默认值</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="242" />
        <source>Matching</source>
        <translation>比对</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="243" />
        <source>Index and search</source>
        <translation>索引与检索</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="244" />
        <source>Template text</source>
        <translation>模板文字</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="245" />
        <source>Interface</source>
        <translation>界面</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="248" />
        <source>Minimum match length (units):</source>
        <translation>最短匹配长度（字数）：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="249" />
        <source>A common passage counts only if it is at least this many characters or words long</source>
        <translation>相同段落至少达到这么多个字或词才计入</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="250" />
        <source>Quotations:</source>
        <translation>引文：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="252" />
        <source>Bibliography:</source>
        <translation>参考文献：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="246" />
        <source>Report pairs from similarity r:</source>
        <translation>报告文档对的最低相似度 r：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="247" />
        <source>Pairs of the collection at or above this similarity r are listed as duplicates</source>
        <translation>文献库中相似度 r 达到或超过此值的文档对列为重复</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="251" />
        <source>Leave text in quotation marks out of every figure</source>
        <translation>各项比例均不计引号内的文字</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="253" />
        <source>Leave the reference list out of every figure</source>
        <translation>各项比例均不计参考文献列表</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="254" />
        <source>Exclude quoted text</source>
        <translation>排除引文</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="255" />
        <source>Exclude the bibliography</source>
        <translation>排除参考文献</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="256" />
        <source>Fingerprint size (bits):</source>
        <translation>指纹长度（位）：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="257" />
        <source>Larger fingerprints estimate similarity more precisely but take more space</source>
        <translation>指纹越长，相似度估计越准确，但占用空间更多</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="258" />
        <source>Search strategy:</source>
        <translation>检索策略：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="259" />
        <source>How candidates are found; every strategy finds the same pairs</source>
        <translation>查找候选文档的方式；每种策略找到的文档对都相同</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="260" />
        <source>Worker processes:</source>
        <translation>工作进程数：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="261" />
        <source>How many documents are read and fingerprinted at the same time</source>
        <translation>同时读取并计算指纹的文档数</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="262" />
        <source>Dask cluster (optional):</source>
        <translation>Dask 集群（可选）：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="263" />
        <source>Address of a Dask scheduler to index and compare on, e.g. tls://host:8786; empty: this computer only. Every document's text is sent to it.</source>
        <translation>在其上建立索引和比对的 Dask 调度器地址，例如 tls://host:8786；留空：仅用本机。每份文档的文本都会发送给它。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="266" />
        <source>Cluster's CA certificate:</source>
        <translation>集群的 CA 证书：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="267" />
        <source>The certificate of the authority that signed the scheduler's (PEM); empty: dask's own configuration</source>
        <translation>签发调度器证书的证书颁发机构（CA）的证书（PEM）；留空：使用 dask 自身的配置</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="269" />
        <source>This computer's certificate:</source>
        <translation>本机证书：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="270" />
        <source>This computer's certificate for the cluster, signed by that authority (PEM); empty: dask's own configuration</source>
        <translation>本机用于该集群的证书，由该颁发机构签发（PEM）；留空：使用 dask 自身的配置</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="272" />
        <source>Its private key:</source>
        <translation>其私钥：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="273" />
        <source>The private key of this computer's certificate (PEM), unless the certificate file holds it</source>
        <translation>本机证书的私钥（PEM），若证书文件已包含私钥则可留空</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="277" />
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="280" />
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="281" />
        <source>Brute force (reference)</source>
        <translation>穷举（基准）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="282" />
        <source>Permuted tables</source>
        <translation>置换表</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="283" />
        <source>Group merging</source>
        <translation>分组合并</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="284" />
        <source>LSH buckets</source>
        <translation>LSH 分桶</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="288" />
        <source>Automatic template:</source>
        <translation>自动模板：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="289" />
        <source>Off: count all text except your template files and the passages you marked</source>
        <translation>关闭：除您的模板文件和您标记的段落外，全部文字都计入</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="290" />
        <source>Leave out sentences found in most documents (the call's form)</source>
        <translation>不计入大多数文档共有的句子（申报书的表格）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="291" />
        <source>Template if in at least (documents):</source>
        <translation>出现在至少多少个文档中视为模板：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="292" />
        <source>A sentence found in at least this many documents is treated as template</source>
        <translation>出现在至少这么多个文档中的句子视为模板</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="293" />
        <source>and at least (share of collection):</source>
        <translation>且至少占文献库的比例：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="294" />
        <source>... and in at least this share of all documents</source>
        <translation>……并且出现在至少这个比例的文档中</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="295" />
        <source>Template files:</source>
        <translation>模板文件：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="296" />
        <source>Template files</source>
        <translation>模板文件</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="297" />
        <source>Files whose sentences are template wherever they occur (e.g. the blank application form)</source>
        <translation>其中的句子无论出现在哪里都视为模板的文件（例如空白申请书）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="298" />
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="299" />
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="300" />
        <source>Language:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="301" />
        <source>The language of the interface; the change applies at once</source>
        <translation>界面语言；更改立即生效</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="302" />
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="310" />
        <source>Changing the fingerprint size re-fingerprints every document from its stored text. This runs in the background after you press OK; the files are not read again.</source>
        <translation>更改指纹长度会根据已保存的文本重新计算每个文档的指纹。按“确定”后在后台进行，不会重新读取文件。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="318" />
        <source>Choose template files</source>
        <translation>选择模板文件</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="319" />
        <source>Documents ({patterns});;All files (*)</source>
        <translation>文档 ({patterns});;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="357" />
        <source>Unencrypted cluster</source>
        <translation>未加密的集群</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/settingsdialog.py" line="358" />
        <source>{address} is not encrypted and is not this computer: every document's text would cross the network, readable by anyone on it. Use the scheduler's TLS address (tls://…) with its certificates instead, unless this network is trusted.

Send the texts unencrypted to {address}?</source>
        <translation>{address} 未加密，且不是本机：每份文档的文本都将以明文经过网络，网络上的任何人都能读取。除非该网络可信，请改用调度器的 TLS 地址（tls://…）及其证书。

仍要以未加密方式将文本发送到 {address} 吗？</translation>
    </message>
</context>
<context>
    <name>SkipReasons</name>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="161" />
        <source>scanned PDF: no text layer</source>
        <translation>扫描版 PDF：没有文字层</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="162" />
        <source>legacy Word .doc: save it as .docx</source>
        <translation>旧版 Word .doc 文件：请另存为 .docx</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="163" />
        <source>Word 6/95 document: save it as .docx</source>
        <translation>Word 6/95 文档：请另存为 .docx</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="164" />
        <source>Microsoft Works document: save it as .docx</source>
        <translation>Microsoft Works 文档：请另存为 .docx</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="165" />
        <source>encrypted Word document: remove the password</source>
        <translation>加密的 Word 文档：请去掉密码</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="166" />
        <source>password-protected PDF: remove the password</source>
        <translation>有密码保护的 PDF：请去掉密码</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="167" />
        <source>password-protected OpenDocument file: remove the password</source>
        <translation>有密码保护的 OpenDocument 文件：请去掉密码</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="168" />
        <source>encrypted PDF this program cannot open ({detail})</source>
        <translation>本程序无法打开的加密 PDF（{detail}）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="169" />
        <source>empty file (0 bytes)</source>
        <translation>空文件（0 字节）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="170" />
        <source>file holds only white space</source>
        <translation>文件只有空白</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="171" />
        <source>no text in this {format} file</source>
        <translation>这个 {format} 文件中没有文字</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="173" />
        <source>no words in the file: only punctuation, numbers of pages or symbols</source>
        <translation>文件中没有文字：只有标点、页码或符号</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="174" />
        <source>file no longer exists</source>
        <translation>文件已不存在</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="175" />
        <source>file was deleted while it was read</source>
        <translation>读取时文件被删除</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="176" />
        <source>file changed while it was read; try again</source>
        <translation>读取时文件发生了变化，请重试</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="177" />
        <source>file cannot be read: permission denied</source>
        <translation>无法读取文件：没有权限</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="178" />
        <source>file cannot be read: {detail}</source>
        <translation>无法读取文件：{detail}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="179" />
        <source>folder cannot be read: {detail}</source>
        <translation>无法读取文件夹：{detail}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="180" />
        <source>no such folder</source>
        <translation>文件夹不存在</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="181" />
        <source>not a folder</source>
        <translation>不是文件夹</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="182" />
        <source>broken symbolic link: its target does not exist</source>
        <translation>失效的符号链接：目标不存在</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="183" />
        <source>file is {size} MB, over the {limit} MB limit</source>
        <translation>文件大小 {size} MB，超过 {limit} MB 的上限</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="184" />
        <source>file is over the {limit} MB limit</source>
        <translation>文件超过 {limit} MB 的上限</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="185" />
        <source>needs more than {limit} MB of memory</source>
        <translation>需要超过 {limit} MB 的内存</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="186" />
        <source>worker was killed, most likely out of memory</source>
        <translation>读取进程被终止，很可能是内存不足</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="187" />
        <source>extraction took longer than {limit} s</source>
        <translation>读取用时超过 {limit} 秒</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="188" />
        <source>unsupported file type {suffix}</source>
        <translation>不支持的文件类型 {suffix}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="190" />
        <source>an archive ({suffix}): unpack it and check the documents inside</source>
        <translation>压缩包（{suffix}）：请解压后检测其中的文档</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="192" />
        <source>not a document: the file holds {what}</source>
        <translation>不是文档：文件内容是 {what}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="194" />
        <source>name not valid UTF-8 (in GBK: '{gbk}'): rename the file (the index cannot keep this name)</source>
        <translation>文件名不是有效的 UTF-8 编码（按 GBK 编码读作“{gbk}”）：请重命名该文件（索引无法保存这个文件名）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="196" />
        <source>name not valid UTF-8: rename the file (the index cannot keep this name)</source>
        <translation>文件名不是有效的 UTF-8 编码：请重命名该文件（索引无法保存这个文件名）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="198" />
        <source>folder name not valid UTF-8 (in GBK: '{gbk}'): rename the folder (the index cannot keep its documents' names)</source>
        <translation>文件夹名不是有效的 UTF-8 编码（按 GBK 编码读作“{gbk}”）：请重命名该文件夹（索引无法保存其中文档的名称）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="200" />
        <source>folder name not valid UTF-8: rename the folder (the index cannot keep its documents' names)</source>
        <translation>文件夹名不是有效的 UTF-8 编码：请重命名该文件夹（索引无法保存其中文档的名称）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="201" />
        <source>damaged Word document: {detail}</source>
        <translation>Word 文档已损坏：{detail}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="202" />
        <source>damaged PDF: {detail}</source>
        <translation>PDF 已损坏：{detail}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="203" />
        <source>damaged OpenDocument text: {detail}</source>
        <translation>OpenDocument 文本已损坏：{detail}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="204" />
        <source>damaged RTF document: {detail}</source>
        <translation>RTF 文档已损坏：{detail}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="205" />
        <source>damaged {what}: {detail}</source>
        <translation>文件已损坏（{what}）：{detail}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="206" />
        <source>file is {what}, not {expected}</source>
        <translation>文件实际是 {what}，不是 {expected}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="207" />
        <source>reading the file failed{detail}</source>
        <translation>读取文件失败{detail}</translation>
    </message>
</context>
<context>
    <name>SourcesModel</name>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="520" />
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="520" />
        <source>Similarity r</source>
        <translation>相似度 r</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="521" />
        <source>Share of the submission</source>
        <translation>占送检文档比例</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="522" />
        <source>Identical units</source>
        <translation>相同字数</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="523" />
        <source>Share of the submission found in this source</source>
        <translation>送检文档出现在此来源中的比例</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="524" />
        <source>LCS ratio of the two texts, template text left out</source>
        <translation>两篇文本的最长公共子序列比率，不计模板文字</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="525" />
        <source>Units in the identical runs the two texts share</source>
        <translation>两篇文本共有的完全相同片段中的字数</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="526" />
        <source>Credited</source>
        <translation>计入比例</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="527" />
        <source>Share of the submission credited to this source: a passage several sources hold is credited to one (the collection's, the earlier indexed, the one holding more)</source>
        <translation>计入该来源的本文比例：多个来源都含有的段落只计入其中一个（优先库内文献，其次较早入库者，再次含量较多者）</translation>
    </message>
</context>
<context>
    <name>StartupErrorDialog</name>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="185" />
        <source>neardup could not start</source>
        <translation>neardup 无法启动</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="188" />
        <source>&lt;b&gt;neardup could not start.&lt;/b&gt; {what}</source>
        <translation>&lt;b&gt;neardup 无法启动。&lt;/b&gt;{what}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="195" />
        <source>If it started failing after a change of settings, “Reset settings” sets the settings file aside (it is kept as a backup) and starts again with the defaults. Your collections and their indexes are not touched.</source>
        <translation>如果是在更改设置后开始出错，“重置设置”会把设置文件移到一旁（保留作备份），并用默认值重新启动。您的文献库及其索引不受影响。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="199" />
        <source>The log file is {path}</source>
        <translation>日志文件：{path}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="205" />
        <source>Error details</source>
        <translation>错误详情</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="208" />
        <source>Reset settings</source>
        <translation>重置设置</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="210" />
        <source>Copy details</source>
        <translation>复制详情</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/errors.py" line="211" />
        <source>Quit</source>
        <translation>退出</translation>
    </message>
</context>
<context>
    <name>SubmissionView</name>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="296" />
        <source>collection</source>
        <translation>文献库</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="296" />
        <source>this call</source>
        <translation>本批次</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="297" />
        <source>excluded for this submission</source>
        <translation>已对本申请书排除</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="301" />
        <source>share of the submission {share}</source>
        <translation>占送检文档比例 {share}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="303" />
        <source>credited {share}</source>
        <translation>计入比例 {share}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="305" />
        <source>holds {share} in all, part of it credited to other sources</source>
        <translation>共含本文 {share}，其中一部分计入其他来源</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="308" />
        <source>holds {share}, all of it set apart by a decision or credited to other sources</source>
        <translation>含本文 {share}，全部经认定剔除或计入其他来源</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="311" />
        <source>holds {share}, all of it credited to other sources</source>
        <translation>含本文 {share}，全部计入其他来源</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="322" />
        <source>&lt;b&gt;{name}&lt;/b&gt;&lt;br&gt;&lt;b&gt;Copied {copied}&lt;/b&gt; (template text not counted) &amp;nbsp;·&amp;nbsp; copied without quotations {nq} &amp;nbsp;·&amp;nbsp; largest single source {largest} &amp;nbsp;·&amp;nbsp; units {units} &amp;nbsp;·&amp;nbsp; template share {template} &amp;nbsp;·&amp;nbsp; sources counted: {n} of {total}</source>
        <translation>&lt;b&gt;{name}&lt;/b&gt;&lt;br&gt;&lt;b&gt;总文字复制比 {copied}&lt;/b&gt;（模板文字不计入）&amp;nbsp;·&amp;nbsp; 去除引用文献复制比 {nq} &amp;nbsp;·&amp;nbsp; 单篇最大文字复制比 {largest} &amp;nbsp;·&amp;nbsp; 总字数 {units} &amp;nbsp;·&amp;nbsp; 模板文字占比 {template} &amp;nbsp;·&amp;nbsp; 计入的来源：{n} / {total}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="338" />
        <source>(beginning)</source>
        <translation>（开头）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="352" />
        <source>Integrity flags:</source>
        <translation>文本异常标记：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="354" />
        <source>(underlined in the text; not counted in any figure)</source>
        <translation>（在正文中以下划线标出；不计入任何数值）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="369" />
        <source>Count this source again</source>
        <translation>重新计入此来源</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="371" />
        <source>Exclude this source</source>
        <translation>排除此来源</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="467" />
        <source>{name} — sources coloured</source>
        <translation>{name} — 按来源着色</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="468" />
        <source>Sources (untick to leave one out of the figures):</source>
        <translation>来源（取消勾选则不计入比例）：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="469" />
        <source>Sources of the submission</source>
        <translation>送检文档的来源</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="470" />
        <source>Side by side</source>
        <translation>对照查看</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="471" />
        <source>Open the submission beside the chosen source</source>
        <translation>将申请书与所选来源并排对照</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="472" />
        <source>Remember for this submission that this source does not count: the decision “not relevant”</source>
        <translation>记住此来源不计入本申请书：即认定为“无关”</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="474" />
        <source>Decide…</source>
        <translation>认定…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="475" />
        <source>Record your decision on this source: copying confirmed, permitted (own work, cited, common knowledge) or not relevant, with a note; printed in the report</source>
        <translation>记录对此来源的认定：确认抄袭、允许（本人成果、已注明引用、公知内容）或无关，可附说明；打印在报告中</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="478" />
        <source>Export the report…</source>
        <translation>导出报告…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="479" />
        <source>Sections:</source>
        <translation>分段：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="480" />
        <source>Section</source>
        <translation>段落</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="480" />
        <source>Units</source>
        <translation>总字数</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="480" />
        <source>Copied</source>
        <translation>文字复制比</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="481" />
        <source>Click a coloured passage to see it beside its source</source>
        <translation>点击着色片段，与其来源并排查看</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/submissionview.py" line="484" />
        <source>Each source's passages have its colour and number: &lt;span style="background-color:{exact};"&gt;identical text&lt;/span&gt;, &lt;span style="background-color:{edited};"&gt;edited words&lt;/span&gt;. &lt;span style="color:{fg}; background-color:{bg};"&gt;Template text&lt;/span&gt; and &lt;span style="color:{fg}; background-color:{bg}; text-decoration:line-through;"&gt;excluded text&lt;/span&gt; are never counted.</source>
        <translation>每个来源的片段有其颜色和编号：&lt;span style="background-color:{exact};"&gt;完全相同的文字&lt;/span&gt;，&lt;span style="background-color:{edited};"&gt;改动的文字&lt;/span&gt;。&lt;span style="color:{fg}; background-color:{bg};"&gt;模板文字&lt;/span&gt;和&lt;span style="color:{fg}; background-color:{bg}; text-decoration:line-through;"&gt;排除文字&lt;/span&gt;从不计入。</translation>
    </message>
</context>
<context>
    <name>Task</name>
    <message>
        <location filename="../../neardup_gui/app/tasks.py" line="82" />
        <source>Waiting: another window or command is writing to the index…</source>
        <translation>正在等待：另一个窗口或命令正在写入索引…</translation>
    </message>
</context>
<context>
    <name>Warnings</name>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="290" />
        <source>{n} of {size} bytes are not valid {encoding} and were replaced by � ({where}); the rest was read normally</source>
        <translation>{size} 字节中有 {n} 字节不是有效的 {encoding} 编码，已替换为 �（{where}）；其余内容正常读取</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="293" />
        <location filename="../../neardup_gui/app/models.py" line="414" />
        <source>recovered from a damaged file: {detail}</source>
        <translation>从损坏的文件中恢复：{detail}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="295" />
        <source>page(s) {pages} read by the salvage reader (pdfminer.six): {detail}</source>
        <translation>第 {pages} 页由修复读取器（pdfminer.six）读取：{detail}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="297" />
        <source>read by the salvage reader (pdfminer.six): {detail}</source>
        <translation>由修复读取器（pdfminer.six）读取：{detail}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="299" />
        <source>{n} characters whose font is lost are left out</source>
        <translation>{n} 个字符的字体已丢失，未读入</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="302" />
        <source>the glyph widths of {n} font(s) are damaged: characters may be read in another order or left out</source>
        <translation>{n} 个字体的字形宽度已损坏：字符可能顺序错乱或遗漏</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="305" />
        <source>the character map of {n} font(s) is damaged: some characters may be read wrongly</source>
        <translation>{n} 个字体的字符映射表已损坏：部分字符可能读错</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="308" />
        <source>the file is cut short: {n} characters of its text are missing</source>
        <translation>文件不完整：正文缺少 {n} 个字符</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="322" />
        <source>the end of the file (cross-reference table and trailer) is lost</source>
        <translation>文件末尾（交叉引用表和文件尾）已丢失</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="324" />
        <source>the cross-reference table or trailer is damaged</source>
        <translation>交叉引用表或文件尾已损坏</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="326" />
        <source>, with its catalog and {n} page(s) (rebuilt from their contents)</source>
        <translation>，文档目录和 {n} 个页面对象一并丢失（已按页面内容重建）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="327" />
        <source>, with its catalog</source>
        <translation>，文档目录一并丢失</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="329" />
        <source>; {n} page(s) read from the objects that survive</source>
        <translation>；从保留下来的对象中读取了 {n} 页</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="331" />
        <source>the PDF is damaged after page {n} ({why}); the pages after it are lost</source>
        <translation>PDF 在第 {n} 页之后损坏（{why}）；其后的页面已丢失</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="334" />
        <source>the contents of page(s) {pages} are damaged; their text after the damage is lost or read wrongly</source>
        <translation>第 {pages} 页的内容已损坏；损坏处之后的正文已丢失或可能读错</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="337" />
        <source>the page tree is damaged{why}; {n} page(s) found among its objects</source>
        <translation>页面树已损坏{why}；在其对象中找到 {n} 页</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="339" />
        <source>the page tree counts {count} pages; {lost} of them lost</source>
        <translation>页面树记有 {count} 页；其中 {lost} 页已丢失</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="341" />
        <source>its cross-reference table is damaged; {n} object(s) found by reading the whole file</source>
        <translation>其交叉引用表已损坏；通读整个文件找到 {n} 个对象</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="344" />
        <source>the name of the contents of page(s) {pages} is damaged; read from the stream it names</source>
        <translation>第 {pages} 页内容的名称已损坏；已从其所指的数据流读取</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="348" />
        <source>the contents of page(s) {pages} lost their description and were read as the compressed data they hold</source>
        <translation>第 {pages} 页的内容丢失了其描述，已按其中保存的压缩数据读取</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="351" />
        <source>its fonts give some glyphs no character</source>
        <translation>其字体有些字形没有对应的字符</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="353" />
        <source>the fast reader could not read it</source>
        <translation>快速读取器无法读取</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="354" />
        <source>PDFium cannot read it</source>
        <translation>PDFium 无法读取</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="356" />
        <source>object {n} is not where the cross-reference table says</source>
        <translation>对象 {n} 不在交叉引用表所指的位置</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="358" />
        <source>a stream does not end where its length says</source>
        <translation>有一个流的结束位置与其长度不符</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="360" />
        <source>the compressed data of stream {n} is damaged{why}</source>
        <translation>流 {n} 的压缩数据已损坏{why}</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="362" />
        <source>the compressed data of stream {n} is cut short</source>
        <translation>流 {n} 的压缩数据被截断</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="364" />
        <source>the dictionary of object {n} is damaged</source>
        <translation>对象 {n} 的字典已损坏</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="366" />
        <source>the file's end (startxref) is lost</source>
        <translation>文件末尾（startxref）已丢失</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="368" />
        <source>its compound file cannot be read ({why})</source>
        <translation>其复合文件无法读取（{why}）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="370" />
        <source>; the text was read from the Word stream that survives</source>
        <translation>；正文取自保留下来的 Word 数据流</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="371" />
        <source>the zip archive's directory is unreadable</source>
        <translation>zip 压缩包的目录无法读取</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="372" />
        <source>the zip archive's directory is damaged</source>
        <translation>zip 压缩包的目录已损坏</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="374" />
        <source>; {n} part(s) read up to the damage ({names})</source>
        <translation>；读取了损坏处之前的 {n} 个部件（{names}）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="376" />
        <source>; its directory, from byte {pos}, is cut short or damaged</source>
        <translation>；其目录（从第 {pos} 字节起）不完整或已损坏</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="378" />
        <source>; no part at byte {pos}, the next one at byte {next}</source>
        <translation>；第 {pos} 字节处没有部件，下一个部件从第 {next} 字节开始</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="379" />
        <source>; the file ends there</source>
        <translation>；文件到此结束</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="380" />
        <source>; cut at byte {pos}</source>
        <translation>；文件在第 {pos} 字节处截断</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="382" />
        <source>; no further part at byte {pos}</source>
        <translation>；第 {pos} 字节处之后没有部件</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="383" />
        <source>; {name} is cut short</source>
        <translation>；{name} 不完整</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="384" />
        <source>; {name}: checksum mismatch</source>
        <translation>；{name}：校验和不符</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="386" />
        <source>; {name}: damaged compressed data</source>
        <translation>；{name}：压缩数据已损坏</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="387" />
        <source>, its text read up to the damage</source>
        <translation>，其正文读取到损坏处为止</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="389" />
        <source>, some of its characters may be read wrongly</source>
        <translation>，其中部分字符可能读错</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="391" />
        <source>its end is lost ({n} group(s) left open)</source>
        <translation>文件末尾已丢失（{n} 个组未闭合）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="392" />
        <source>{n} closing brace(s) too many</source>
        <translation>多出 {n} 个右花括号</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="394" />
        <source>{n} damaged character(s) left out</source>
        <translation>已略去 {n} 个损坏的字符</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="396" />
        <source>{n} entries of its font, colour, style or list tables found outside them and left out</source>
        <translation>已略去 {n} 个出现在字体表、颜色表、样式表或列表表之外的表项</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="398" />
        <source>the file is cut short inside a tag</source>
        <translation>文件在某个标签中间被截断</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="399" />
        <source>{n} damaged tag(s) left out</source>
        <translation>已略去 {n} 个损坏的标签</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="400" />
        <source>; the text that survives was read</source>
        <translation>；已读取保留下来的正文</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="402" />
        <source>headers and footers left out ({why})</source>
        <translation>已略去页眉页脚（{why}）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/models.py" line="404" />
        <source>{part} left out ({why})</source>
        <translation>已略去 {part}（{why}）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/flagtext.py" line="60" />
        <location filename="../../neardup_gui/app/models.py" line="415" />
        <location filename="../../neardup_gui/app/models.py" line="435" />
        <location filename="../../neardup_gui/app/models.py" line="445" />
        <source>; </source>
        <translation>；</translation>
    </message>
</context>
<context>
    <name>WelcomeView</name>
    <message>
        <location filename="../../neardup_gui/app/welcome.py" line="103" />
        <source>&lt;h1&gt;neardup&lt;/h1&gt;</source>
        <translation>&lt;h1&gt;neardup 文档查重&lt;/h1&gt;</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/welcome.py" line="106" />
        <source>neardup finds near-duplicate and copied passages in a folder of documents (Word, PDF and text files, in Chinese and English) and shows the matching text side by side. Everything stays on this computer: open a folder to index it, then drop a new submission on the window to check it against the collection.</source>
        <translation>neardup 在一个文档文件夹（Word、PDF 和文本文件，中英文均可）中查找近似重复和抄袭的段落，并把相同的文字左右对照显示。所有内容都留在这台电脑上：打开一个文件夹为其建立索引，再把新的送检文档拖到窗口上，即可与文献库比对。</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/welcome.py" line="112" />
        <source>Open a folder…</source>
        <translation>打开文件夹…</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/welcome.py" line="113" />
        <source>Choose a folder of documents to index as a collection (Ctrl+O)</source>
        <translation>选择一个文档文件夹，将其建立索引作为文献库（Ctrl+O）</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/welcome.py" line="114" />
        <source>Try the sample collection</source>
        <translation>试用示例文献库</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/welcome.py" line="115" />
        <source>Open the bundled sample of funding proposals with planted duplicates</source>
        <translation>打开内置的基金申请书示例，其中预置了重复案例</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/welcome.py" line="116" />
        <source>Recent collections:</source>
        <translation>最近的文献库：</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/welcome.py" line="117" />
        <source>Recent collections</source>
        <translation>最近的文献库</translation>
    </message>
    <message>
        <location filename="../../neardup_gui/app/welcome.py" line="118" />
        <source>You can also drag a folder onto this window.</source>
        <translation>也可以把文件夹拖到这个窗口上。</translation>
    </message>
</context>
</TS>
