<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>CheckView</name>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/checkview.py" line="218" />
        <source>%n of them hidden: they still count in the figures above</source>
        <translation>
            <numerusform>%n of them hidden: they still count in the figures above</numerusform>
            <numerusform>%n of them hidden: they still count in the figures above</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/checkview.py" line="223" />
        <source>%n source(s) found</source>
        <translation>
            <numerusform>%n source found</numerusform>
            <numerusform>%n sources found</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CommonView</name>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/commonview.py" line="200" />
        <source>%n passage(s) found in several documents</source>
        <translation>
            <numerusform>%n passage found in several documents</numerusform>
            <numerusform>%n passages found in several documents</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/commonview.py" line="201" />
        <source>%n of them left out as template</source>
        <translation>
            <numerusform>%n of them left out as template</numerusform>
            <numerusform>%n of them left out as template</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DuplicatesView</name>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/duplicatesview.py" line="142" />
        <source>%n pair(s) in which at least {cut} of one document is found in the other</source>
        <translation>
            <numerusform>%n pair in which at least {cut} of one document is found in the other</numerusform>
            <numerusform>%n pairs in which at least {cut} of one document is found in the other</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/duplicatesview.py" line="146" />
        <source>%n pair(s) with similarity r of at least {threshold}</source>
        <translation>
            <numerusform>%n pair with similarity r of at least {threshold}</numerusform>
            <numerusform>%n pairs with similarity r of at least {threshold}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Flags</name>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/flagtext.py" line="17" />
        <source>Hidden text: %n character(s)</source>
        <translation>
            <numerusform>Hidden text: %n character</numerusform>
            <numerusform>Hidden text: %n characters</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/mainwindow.py" line="464" />
        <source>%n file(s) could not be read.</source>
        <translation>
            <numerusform>%n file could not be read.</numerusform>
            <numerusform>%n files could not be read.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/mainwindow.py" line="466" />
        <source>%n unchanged file(s) read again: this version reads their format differently.</source>
        <translation>
            <numerusform>%n unchanged file read again: this version reads their format differently.</numerusform>
            <numerusform>%n unchanged files read again: this version reads their format differently.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/mainwindow.py" line="469" />
        <source>%n document(s) kept as they were: their folder could not be read.</source>
        <translation>
            <numerusform>%n document kept as it was: its folder could not be read.</numerusform>
            <numerusform>%n documents kept as they were: their folder could not be read.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/mainwindow.py" line="589" />
        <source>%n document(s): {indexed} indexed, {warned} with warnings, {skipped} skipped</source>
        <translation>
            <numerusform>%n document: {indexed} indexed, {warned} with warnings, {skipped} skipped</numerusform>
            <numerusform>%n documents: {indexed} indexed, {warned} with warnings, {skipped} skipped</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/mainwindow.py" line="595" />
        <source>; %n file(s) could not be read</source>
        <translation>
            <numerusform>; %n file could not be read</numerusform>
            <numerusform>; %n files could not be read</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/mainwindow.py" line="597" />
        <source>; %n other file(s) left out (not a format neardup reads)</source>
        <translation>
            <numerusform>; %n other file left out (not a format neardup reads)</numerusform>
            <numerusform>; %n other files left out (not a format neardup reads)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ProgressCounts</name>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/widgets.py" line="48" />
        <source>Found %n document(s)</source>
        <translation>
            <numerusform>Found %n document</numerusform>
            <numerusform>Found %n documents</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/widgets.py" line="51" />
        <source>Finding common passages (%n document(s) read)</source>
        <translation>
            <numerusform>Finding common passages (%n document read)</numerusform>
            <numerusform>Finding common passages (%n documents read)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/widgets.py" line="54" />
        <source>Re-fingerprinted %n document(s)</source>
        <translation>
            <numerusform>Re-fingerprinted %n document</numerusform>
            <numerusform>Re-fingerprinted %n documents</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/widgets.py" line="57" />
        <source>Indexed %n document(s) ({warned} with warnings, {skipped} skipped)</source>
        <translation>
            <numerusform>Indexed %n document ({warned} with warnings, {skipped} skipped)</numerusform>
            <numerusform>Indexed %n documents ({warned} with warnings, {skipped} skipped)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ScreeningView</name>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/screeningview.py" line="342" />
        <source>&lt;b&gt;%n submission(s)&lt;/b&gt; in {folder}</source>
        <translation>
            <numerusform>&lt;b&gt;%n submission&lt;/b&gt; in {folder}</numerusform>
            <numerusform>&lt;b&gt;%n submissions&lt;/b&gt; in {folder}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/screeningview.py" line="344" />
        <source>%n at or above the flag line</source>
        <translation>
            <numerusform>%n at or above the flag line</numerusform>
            <numerusform>%n at or above the flag line</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/screeningview.py" line="345" />
        <source>%n could not be read</source>
        <translation>
            <numerusform>%n could not be read</numerusform>
            <numerusform>%n could not be read</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../neardup_gui/app/screeningview.py" line="347" />
        <source>%n other file(s) left out (not a format neardup reads)</source>
        <translation>
            <numerusform>%n other file left out (not a format neardup reads)</numerusform>
            <numerusform>%n other files left out (not a format neardup reads)</numerusform>
        </translation>
    </message>
</context>
</TS>
